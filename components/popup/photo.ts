/**
 * A provider's image is shown over its brand tile once it has loaded (RewardImage.tsx,
 * entrypoints/popup/style.css): until then, and if it never loads, the tile shows, never a blank
 * or grey square. Loaded is an attribute set on the element, never one a component renders; Preact
 * drops it as it takes a painted image over and the ref below sets it again in the same task.
 */
export function markLoaded(img: HTMLImageElement): void {
  img.dataset.loaded = '';
}

/**
 * As the image's ref, in the first frame and in Preact's: marks it loaded whenever it loads, and at
 * once if it already has (before this script listened, or before Preact took it over). An image
 * that failed is complete without a size: it stays unmarked, the tile in its place.
 */
export function watchPhoto(img: HTMLImageElement | null): void {
  if (!img) return;
  img.addEventListener('load', () => markLoaded(img));
  if (img.complete && img.naturalWidth > 0) markLoaded(img);
}
