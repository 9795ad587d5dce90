/** A copy of what the panel sent, and when: the shape of every cache in storage, paged or whole. */
export interface Cached<T> {
  data: T;
  /** Epoch ms of the fetch that produced data. */
  fetchedAt: number;
}
