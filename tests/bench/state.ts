/**
 * The extension's stored state, as the benchmark prepares it between runs. Connecting goes
 * through the options page once, as a panelist does (it checks the token with a real request and
 * writes `credentials`, `session` and the first cache); between runs the cache items are edited
 * in storage.local from the service worker, which is what the background itself does.
 */
import type { Bench } from './browser';
import { popupViewItem } from '../../utils/storage-items';
import { OPTIONS_VIEWPORT } from './config';

export const CACHE_KEYS = ['cache:rewards', 'cache:history', 'cache:profile'] as const;

export async function connectThroughOptions(bench: Bench, baseUrl: string, token: string): Promise<void> {
  const page = await bench.open('options.html', OPTIONS_VIEWPORT);
  await page.getByLabel('Personal key').waitFor();
  // The build's own panel address sits behind "Advanced" on the options page.
  const address = page.getByLabel('Panel address');
  if (!(await address.isVisible())) await page.getByText('Advanced', { exact: true }).click();
  await address.fill(baseUrl);
  await page.getByLabel('Personal key').fill(token);
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.getByRole('button', { name: 'Disconnect' }).waitFor();
  // Connected once the key is accepted; the first reads follow (session/session.ts): each area tried, then idle.
  for (const started = Date.now(); Date.now() - started < 60_000; await new Promise((r) => setTimeout(r, 50))) {
    const { attempts } = await syncSnapshot(bench);
    if (['rewards', 'history', 'profile'].every((area) => (attempts[area] ?? 0) > 0)) break;
  }
  await waitIdle(bench);
  await page.close();
}

/** When the harness last made the cache fresh; lets ageCache skip reading a huge cache back. */
const freshSince = new WeakMap<Bench, number>();

/** Empties the cache and the sync states (credentials and session stay): the next page load is cold. */
export async function clearCache(bench: Bench): Promise<void> {
  freshSince.delete(bench);
  // The popup view and the reward HTML go with the caches they are made from, or a cold popup would
  // paint the old view.
  // The history's pages (utils/paged-item.ts) go with its head.
  await bench.inWorker(
    async (keys) => {
      const pages = (await chrome.storage.local.getKeys()).filter((k) => keys.some((key) => k.startsWith(`${key}:`)));
      await chrome.storage.local.remove([
        ...keys,
        ...pages,
        'view:popup',
        'cache:reward-html',
        'sync',
        'ledger',
        'draft:profile',
      ]);
    },
    [...CACHE_KEYS],
  );
}

/**
 * Dates the cached items: `ageMs` 0 makes them fresh (younger than FRESH_MS, 60 s), a large age
 * makes them stale. The popup view's parts are dated with them: the rewards' freshness is read from
 * the view, so a stale catalogue under a fresh view would not be refreshed. With
 * `skipWithinMs`, a cache made fresh that recently is left alone, so huge caches are not read and
 * rewritten before every run.
 */
export async function ageCache(bench: Bench, ageMs: number, skipWithinMs = 0): Promise<void> {
  if (ageMs === 0 && skipWithinMs && Date.now() - (freshSince.get(bench) ?? 0) < skipWithinMs) return;
  if (ageMs === 0) freshSince.set(bench, Date.now());
  else freshSince.delete(bench);
  await bench.inWorker(ageStored, { keys: [...CACHE_KEYS], viewKey: popupViewItem.key, ageMs });
}

/**
 * ageCache's work, run inside the extension (the Chrome worker, or a Firefox extension page): it goes
 * there as source text, so it names no function of its own (probe.ts, NAME_SHIM) and finds the
 * storage API itself (Firefox's `browser`, else `chrome`).
 */
export const ageStored = async ({ keys, viewKey, ageMs }: { keys: string[]; viewKey: string; ageMs: number }) => {
  const local = ((globalThis as { browser?: typeof chrome }).browser ?? chrome).storage.local;
  const now = Date.now();
  const stored = await local.get(keys);
  const changed: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(stored) as Array<[string, { fetchedAt: number } | null]>) {
    if (!item) continue;
    changed[key] = { ...item, fetchedAt: now - ageMs };
  }
  const view = (await local.get(viewKey))[viewKey] as
    Record<string, { fetchedAt: number } | null | undefined> | undefined;
  if (view) {
    const dated = { ...view };
    for (const part of ['rewards', 'profile']) if (view[part]) dated[part] = { ...view[part], fetchedAt: now - ageMs };
    changed[viewKey] = dated;
  }
  if (Object.keys(changed).length) await local.set(changed);
};

export async function clearDraft(bench: Bench): Promise<void> {
  await bench.inWorker(() => chrome.storage.local.remove('draft:profile'), null);
}

export interface SyncSnapshot {
  loading: string[];
  /** attemptedAt of each area's last sync state. */
  attempts: Record<string, number>;
  errors: Record<string, string>;
  cached: string[];
}

export async function syncSnapshot(bench: Bench): Promise<SyncSnapshot> {
  return bench.inWorker(
    async (keys) => {
      const { sync } = await chrome.storage.local.get<{
        sync?: Record<string, { loading: boolean; attemptedAt: number; error: { message: string } | null }>;
      }>('sync');
      // Sizes, not values: reading a cache of many megabytes back on every poll would load the worker.
      const sizes = await Promise.all(keys.map((k) => chrome.storage.local.getBytesInUse(k)));
      const areas = Object.entries(sync ?? {});
      return {
        loading: areas.filter(([, s]) => s.loading).map(([a]) => a),
        attempts: Object.fromEntries(areas.map(([a, s]) => [a, s.attemptedAt])),
        errors: Object.fromEntries(areas.filter(([, s]) => s.error).map(([a, s]) => [a, s.error!.message])),
        cached: keys.filter((_, i) => sizes[i]! > 4),
      };
    },
    [...CACHE_KEYS],
  );
}

/** A refresh that has run this long is taken as finished too (its flag was left on). */
const LONGEST_REFRESH_MS = 30_000;

/**
 * Areas whose cache was written after their sync state's `attemptedAt` (their fetch has
 * finished), or whose attempt started more than LONGEST_REFRESH_MS ago.
 */
async function finishedAreas(bench: Bench, snap: SyncSnapshot): Promise<string[]> {
  const fetched = await bench.inWorker(async (areas) => {
    const out: Record<string, number> = {};
    for (const area of areas) {
      const key = `cache:${area}`;
      const cached = (await chrome.storage.local.get(key))[key] as { fetchedAt: number } | undefined;
      if (cached) out[area] = cached.fetchedAt;
    }
    return out;
  }, snap.loading);
  const now = Date.now();
  return snap.loading.filter((area) => {
    const attempt = snap.attempts[area] ?? now;
    return (fetched[area] ?? -Infinity) >= attempt || now - attempt > LONGEST_REFRESH_MS;
  });
}

/** Each `loading` flag found still on after its area's fetch had finished (area, attempt, where). */
export const stuckFlags: Array<{ area: string; attemptedAt: number; at: string }> = [];

/**
 * Waits until the background has no refresh running (and a short quiet spell has passed). A
 * `loading` flag that stays on while its area's cache is already newer than the attempt (or for
 * longer than any refresh takes) is a flag the background failed to clear: recorded once in
 * `stuckFlags`, not waited on.
 */
export async function waitIdle(bench: Bench, timeoutMs = 60_000, context = ''): Promise<SyncSnapshot> {
  const started = Date.now();
  let quiet = 0;
  let nextStuckCheck = started + 300;
  // A flag seen "finished but loading" once may be a refresh between its cache write and its
  // final sync write; it counts as stuck only when it stays so for 2 s.
  const suspects = new Map<string, number>();
  for (;;) {
    const snap = await syncSnapshot(bench);
    quiet = snap.loading.length ? 0 : quiet + 1;
    if (quiet >= 3 || Date.now() - started > timeoutMs) return snap;
    if (snap.loading.length && Date.now() >= nextStuckCheck) {
      nextStuckCheck = Date.now() + 500;
      const now = Date.now();
      const stuck = (await finishedAreas(bench, snap)).filter((area) => {
        const key = `${area}:${snap.attempts[area]}`;
        if (!suspects.has(key)) suspects.set(key, now);
        return now - suspects.get(key)! >= 2_000;
      });
      for (const area of stuck) {
        const attemptedAt = snap.attempts[area]!;
        if (!stuckFlags.some((f) => f.area === area && f.attemptedAt === attemptedAt))
          stuckFlags.push({ area, attemptedAt, at: context });
      }
      if (stuck.length === snap.loading.length) return snap;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function storageBytes(bench: Bench): Promise<number> {
  return bench.inWorker(() => chrome.storage.local.getBytesInUse(null), null);
}
