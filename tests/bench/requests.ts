/**
 * API requests, counted from the sandbox's own record of what it received: opening the popup
 * and the options page with an empty, a fresh (younger than FRESH_MS) and a stale cache, two
 * popups at once (coalescing), and one firing of the background refresh alarm, from which the
 * hourly rate per idle browser and the load on the panel's servers follow.
 */
import type { Sandbox } from '../sandbox/server';
import type { Bench } from './browser';
import { OPTIONS_VIEWPORT } from './config';
import { measureLoad, type LoadSpec } from './page-run';
import { ageCache, clearCache, waitIdle } from './state';
import { POPUP } from './timing';
import { DEFAULT_PREFERENCES } from '../../utils/preferences';

export interface Count {
  total: number;
  byEndpoint: Record<string, number>;
  /** Age of the cached rewards when the page was opened, ms (FRESH_MS is 60,000). */
  cacheAgeMs?: number | null;
}

export interface AlarmInfo {
  name: string;
  periodInMinutes: number | null;
  /** The refresh interval in preferences (the default when the panelist never changed it). */
  preferencesRefreshMinutes: number | null;
  /** How long after we re-armed it the alarm fired, ms. */
  firedAfterMs: number | null;
  perFiring: Count;
  restored: boolean;
}

export interface RequestsReport {
  popup: { emptyCache: Count; freshCache: Count; staleCache: Count; twoPopupsStaleCache: Count };
  options: { emptyCache: Count; freshCache: Count };
  alarm: AlarmInfo;
  perIdleBrowserPerHour: number;
  fleet: Array<{ installs: number; requestsPerHour: number; requestsPerSecond: number }>;
  jitterNote: string;
}

const OPTIONS: LoadSpec = { path: 'options.html', viewport: OPTIONS_VIEWPORT, elements: ['profile', 'history'] };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function count(sandbox: Sandbox): Count {
  const byEndpoint: Record<string, number> = {};
  for (const r of sandbox.requests) byEndpoint[`${r.method} ${r.path}`] = (byEndpoint[`${r.method} ${r.path}`] ?? 0) + 1;
  return { total: sandbox.requests.length, byEndpoint };
}

/** Prepares the cache, forgets earlier requests, opens the page(s), waits until all work settled. */
async function opening(bench: Bench, sandbox: Sandbox, cache: 'empty' | 'fresh' | 'stale', spec: LoadSpec, pages = 1): Promise<Count> {
  if (cache === 'empty') await clearCache(bench);
  else await ageCache(bench, cache === 'fresh' ? 0 : 10 * 60_000);
  await waitIdle(bench);
  const cacheAgeMs = await bench.inWorker(async () => {
    const { 'cache:rewards': cached } = (await chrome.storage.local.get('cache:rewards')) as { 'cache:rewards'?: { fetchedAt: number } };
    return cached ? Date.now() - cached.fetchedAt : null;
  }, null);
  sandbox.requests.length = 0;
  if (pages === 1) {
    await measureLoad(bench, spec);
  } else {
    const tabs = await Promise.all(Array.from({ length: pages }, () => bench.open(spec.path, spec.viewport)));
    await Promise.all(tabs.map((t) => t.waitForFunction(() => window.__bench.marks.content?.paint !== undefined)));
    await Promise.all(tabs.map((t) => t.close()));
  }
  await sleep(500);
  await waitIdle(bench, 60_000, `${spec.path}, ${cache} cache`);
  return { ...count(sandbox), cacheAgeMs };
}

async function fireAlarm(bench: Bench, sandbox: Sandbox): Promise<AlarmInfo> {
  const before = await bench.inWorker(async () => {
    const alarms = await chrome.alarms.getAll();
    const { preferences } = (await chrome.storage.local.get('preferences')) as { preferences?: { refreshMinutes: number } };
    return { alarms, refreshMinutes: preferences?.refreshMinutes ?? null };
  }, null);
  const alarm = before.alarms.find((a) => a.name === 'refresh') ?? before.alarms[0];
  const info: AlarmInfo = {
    name: alarm?.name ?? '(none)',
    // One-shot alarms re-armed at 0.75–1.25 × the interval (the defaults when never set): the mean period.
    periodInMinutes: before.refreshMinutes ?? DEFAULT_PREFERENCES.refreshMinutes,
    preferencesRefreshMinutes: before.refreshMinutes,
    firedAfterMs: null,
    perFiring: { total: 0, byEndpoint: {} },
    restored: false,
  };
  if (!alarm) return info;
  await waitIdle(bench);
  sandbox.requests.length = 0;
  // Re-armed to fire now under the same name: the background's own onAlarm listener then runs
  // exactly what it runs each time, re-arming itself. Unpacked extensions may use short delays.
  const armedAt = Date.now();
  await bench.inWorker(({ name }) => chrome.alarms.create(name, { when: Date.now() + 100 }), { name: alarm.name });
  const deadline = Date.now() + 45_000;
  while (sandbox.requests.length === 0 && Date.now() < deadline) await sleep(50);
  if (sandbox.requests.length) info.firedAfterMs = sandbox.requests[0]!.at - armedAt;
  await sleep(500);
  await waitIdle(bench, 60_000, 'refresh alarm');
  info.perFiring = count(sandbox);
  // The handler re-armed the next run itself.
  info.restored = await bench.inWorker(async ({ name }) => (await chrome.alarms.get(name)) !== undefined, { name: alarm.name });
  return info;
}

export async function measureRequests(bench: Bench, sandbox: () => Sandbox): Promise<RequestsReport> {
  const popup = {
    emptyCache: await opening(bench, sandbox(), 'empty', POPUP),
    freshCache: await opening(bench, sandbox(), 'fresh', POPUP),
    staleCache: await opening(bench, sandbox(), 'stale', POPUP),
    twoPopupsStaleCache: await opening(bench, sandbox(), 'stale', POPUP, 2),
  };
  const options = {
    emptyCache: await opening(bench, sandbox(), 'empty', OPTIONS),
    freshCache: await opening(bench, sandbox(), 'fresh', OPTIONS),
  };
  const alarm = await fireAlarm(bench, sandbox());
  const period = alarm.periodInMinutes ?? alarm.preferencesRefreshMinutes ?? 0;
  const perHour = period > 0 ? Math.round(alarm.perFiring.total * (60 / period) * 100) / 100 : 0;
  const fleet = [100_000, 1_000_000].map((installs) => ({
    installs,
    requestsPerHour: Math.round(installs * perHour),
    requestsPerSecond: Math.round(((installs * perHour) / 3600) * 10) / 10,
  }));
  const jitterNote =
    `Each refresh re-arms a one-shot alarm ${period} min × a random 0.75–1.25 ahead (entrypoints/background/alarms.ts), ` +
    'so installs drift apart and the average above is also the expected steady rate. An alarm that fell due while the ' +
    'browser was closed does not refresh at start-up: it is moved a random 1–10 min ahead, so browsers started together ' +
    '(mornings, after an update) do not call the panel together.';
  return { popup, options, alarm, perIdleBrowserPerHour: perHour, fleet, jitterNote };
}
