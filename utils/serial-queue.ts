/**
 * Work run one at a time, in the order it was queued: each starts once the one before has settled.
 * A failure is its caller's alone: it rejects that `run`, and the next work starts as after a success.
 */
export interface SerialQueue {
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Resolves once every work queued so far has settled; never rejects. */
  idle(): Promise<void>;
}

export function serialQueue(): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run(work) {
      const run = tail.then(() => work());
      tail = run.catch(() => undefined);
      return run;
    },
    idle: () => tail.then(() => undefined),
  };
}
