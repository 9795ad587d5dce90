/**
 * Puts weeks of balance samples in place of the ones the worker recorded, for the goal's pace line
 * and the options page's chart. Run in an extension page or the worker of either browser:
 * `target.evaluate(seedBalanceHistory, samples)`.
 *
 * The worker records the balance of its first rewards read after connecting, and that write can
 * land after "Connected" shows. Written before it, the samples would be replaced by that one
 * sample (a goal with no pace line, a chart that is "the first day"), so this waits for the
 * worker's own sample first. Later reads of an unmoved balance add nothing.
 *
 * A read the worker took before the write and stores after it (one turn of its store, a refresh
 * that landed as the samples went in) would put its own in their place: the samples are read back
 * until they have stood for a second, and written again whenever they were replaced. A sample the
 * worker adds after them (a balance that moved since) leaves them in place.
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
  const wanted = JSON.stringify(samples);
  const inPlace = (stored: unknown) =>
    Array.isArray(stored) && JSON.stringify(stored.slice(0, samples.length)) === wanted;
  await api.set({ [key]: samples });
  let since = Date.now();
  while (Date.now() - since < 1_000) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (inPlace((await api.get(key))[key])) continue;
    if (Date.now() > deadline) throw new Error('the worker kept replacing the balance samples for 30 s');
    await api.set({ [key]: samples });
    since = Date.now();
  }
}
