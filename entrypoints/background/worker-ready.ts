/**
 * The worker's start-up recovery (recover.ts), which a redeem and a check alarm wait for: a pending
 * entry a stopped worker left behind is turned unknown, with its check scheduled, before anything
 * can refuse a redeem on its account or look for its outcome, so no Confirm is lost with the worker that sent it.
 */
let started: Promise<void> = Promise.resolve();

export function workerReady(): Promise<void> {
  return started;
}

export function startingWith(recovery: Promise<void>): void {
  started = recovery.catch(() => undefined);
}
