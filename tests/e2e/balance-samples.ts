/**
 * Puts weeks of balance samples in place of the ones the worker recorded, for the goal's pace line
 * and the options page's chart. Run in an extension page or the worker of either browser:
 * `target.evaluate(seedBalanceHistory, samples)`.
 *
 * The worker records the balance of its first rewards read after connecting, and that write can
 * land after "Connected" shows. Written before it, the samples would be replaced by that one
 * sample (a goal with no pace line, a chart that is "the first day"), so this waits for the
 * worker's own sample first. Later reads of an unmoved balance add nothing.
 */
export async function seedBalanceHistory(samples: unknown[]): Promise<void> {
  const api = ((globalThis as { browser?: typeof chrome }).browser ?? chrome).storage.local;
  const key = 'balance:history';
  const deadline = Date.now() + 30_000;
  for (;;) {
    const recorded = (await api.get(key))[key] as unknown[] | undefined;
    if (recorded?.length) break;
    if (Date.now() > deadline) throw new Error('the worker recorded no balance within 30 s of connecting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await api.set({ [key]: samples });
}
