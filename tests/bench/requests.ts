/**
 * API requests, counted from the sandbox's own record of what it received: opening the popup
 * and the options page with an empty, a fresh (younger than FRESH_MS) and a stale cache, two
 * popups at once (coalescing), and one firing of the background refresh alarm, from which the
 * hourly rate per idle browser and the load on the panel's servers follow.
 */
import type { Page } from 'playwright-core';
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
  /** What chrome.idle.queryState(600) said in the bench's browser before the firings. */
  browserIdleState: string;
  /** One firing in each state, after an unmeasured firing that brought the validators up to date. */
  firings: AlarmFiring[];
  restored: boolean;
}

export interface AlarmFiring {
  /** Which state the panel and the machine were in. */
  state: 'unfinished' | 'settled' | 'away';
  label: string;
  perFiring: Count;
  /** Bytes the sandbox sent for the firing: status line, headers and body of every answer. */
  bytes: number;
  /** The same firing without usable validators (the unmeasured one, after the bench aged the cache): what a 304 saves. */
  bytesWithoutValidators: number;
  statuses: number[];
  perHour: { requests: number; bytes: number };
  fleet: Array<{ installs: number; requestsPerSecond: number; kilobytesPerSecond: number }>;
}

export interface RequestsReport {
  popup: { emptyCache: Count; freshCache: Count; staleCache: Count; twoPopupsStaleCache: Count };
  options: { emptyCache: Count; freshCache: Count };
  alarm: AlarmInfo;
  /** The typical idle hour: panelist at the machine, every redemption in the history final. */
  perIdleBrowserPerHour: number;
  fleet: Array<{ installs: number; requestsPerHour: number; requestsPerSecond: number }>;
  jitterNote: string;
}

const OPTIONS: LoadSpec = { path: 'options.html', viewport: OPTIONS_VIEWPORT, elements: ['profile', 'history'] };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function count(sandbox: Sandbox): Count {
  const byEndpoint: Record<string, number> = {};
  for (const r of sandbox.requests)
    byEndpoint[`${r.method} ${r.path}`] = (byEndpoint[`${r.method} ${r.path}`] ?? 0) + 1;
  return { total: sandbox.requests.length, byEndpoint };
}

/** Prepares the cache, forgets earlier requests, opens the page(s), waits until all work settled. */
async function opening(
  bench: Bench,
  sandbox: Sandbox,
  cache: 'empty' | 'fresh' | 'stale',
  spec: LoadSpec,
  pages = 1,
): Promise<Count> {
  if (cache === 'empty') await clearCache(bench);
  else await ageCache(bench, cache === 'fresh' ? 0 : 10 * 60_000);
  await waitIdle(bench);
  const cacheAgeMs = await bench.inWorker(async () => {
    const { 'cache:rewards': cached } = await chrome.storage.local.get<{ 'cache:rewards'?: { fetchedAt: number } }>(
      'cache:rewards',
    );
    return cached ? Date.now() - cached.fetchedAt : null;
  }, null);
  sandbox.requests.length = 0;
  // The tabs stay open until the background is idle: the first frame is painted before the app has
  // loaded and asked for anything, so closing at the paint would count nothing.
  const tabs: Page[] = [];
  if (pages === 1) {
    await measureLoad(bench, spec);
  } else {
    tabs.push(...(await Promise.all(Array.from({ length: pages }, () => bench.open(spec.path, spec.viewport)))));
    await Promise.all(tabs.map((t) => t.waitForFunction(() => window.__bench.marks.content?.paint !== undefined)));
  }
  await sleep(500);
  await waitIdle(bench, 60_000, `${spec.path}, ${cache} cache`);
  await Promise.all(tabs.map((t) => t.close()));
  return { ...count(sandbox), cacheAgeMs };
}

const INSTALLS = [100_000, 1_000_000];

/**
 * Fires the refresh alarm the way the browser does: re-armed to fire now under the same name, so
 * the background's own onAlarm listener runs what it runs each time (re-arming itself; unpacked
 * extensions may use short delays). Returns once it re-armed and every refresh has settled.
 */
async function fire(
  bench: Bench,
  sandbox: Sandbox,
  name: string,
): Promise<Count & { bytes: number; statuses: number[] }> {
  await waitIdle(bench);
  await sandbox.idle();
  sandbox.requests.length = 0;
  sandbox.answers.length = 0;
  const armedAt = Date.now();
  await bench.inWorker(({ name }) => chrome.alarms.create(name, { when: Date.now() + 100 }), { name });
  const deadline = Date.now() + 45_000;
  // Re-armed (minutes ahead) means the handler ran past its first await; requests follow it.
  while (Date.now() < deadline) {
    const next = await bench.inWorker(async ({ name }) => (await chrome.alarms.get(name))?.scheduledTime ?? 0, {
      name,
    });
    if (next > armedAt + 60_000) break;
    await sleep(50);
  }
  await sleep(500);
  await waitIdle(bench, 60_000, 'refresh alarm');
  await sandbox.idle();
  return {
    ...count(sandbox),
    bytes: sandbox.answers.reduce((n, a) => n + a.bytes, 0),
    statuses: sandbox.answers.map((a) => a.status),
  };
}

/** Makes the background's idle check answer `state` until the worker stops (the bench cannot walk away). */
const pretendIdle = (bench: Bench, state: string | null) =>
  bench.inWorker(
    ({ state }) => {
      const idle = chrome.idle as unknown as {
        queryState: typeof chrome.idle.queryState;
        __real?: typeof chrome.idle.queryState;
      };
      idle.__real ??= idle.queryState.bind(chrome.idle);
      idle.queryState = (state ? () => Promise.resolve(state) : idle.__real) as typeof chrome.idle.queryState;
    },
    { state },
  );

async function fireAlarm(bench: Bench, sandbox: () => Sandbox): Promise<AlarmInfo> {
  const before = await bench.inWorker(async () => {
    const alarms = await chrome.alarms.getAll();
    const { preferences } = await chrome.storage.local.get<{ preferences?: { refreshMinutes: number } }>('preferences');
    const idle = await chrome.idle.queryState(600).catch((e: Error) => `unavailable: ${e.message}`);
    return { alarms, refreshMinutes: preferences?.refreshMinutes ?? null, idle };
  }, null);
  const alarm = before.alarms.find((a) => a.name === 'refresh') ?? before.alarms[0];
  // One-shot alarms re-armed at 0.75–1.25 × the interval (the defaults when never set): the mean period.
  const period = before.refreshMinutes ?? DEFAULT_PREFERENCES.refreshMinutes;
  const info: AlarmInfo = {
    name: alarm?.name ?? '(none)',
    periodInMinutes: period,
    preferencesRefreshMinutes: before.refreshMinutes,
    browserIdleState: before.idle,
    firings: [],
    restored: false,
  };
  if (!alarm) return info;
  const measure = async (state: AlarmFiring['state'], label: string) => {
    // The first firing after the bench aged the caches reads whole (their fetchedAt no longer
    // matches the validators'); the steady state is the next one.
    await ageCache(bench, 10 * 60_000);
    await pretendIdle(bench, 'active');
    const whole = await fire(bench, sandbox(), alarm.name);
    await pretendIdle(bench, state === 'away' ? 'locked' : 'active');
    const fired = await fire(bench, sandbox(), alarm.name);
    await pretendIdle(bench, null);
    const perHour = { requests: round2(fired.total * (60 / period)), bytes: Math.round(fired.bytes * (60 / period)) };
    const fleet = INSTALLS.map((installs) => ({
      installs,
      requestsPerSecond: round2((installs * perHour.requests) / 3600),
      kilobytesPerSecond: round2((installs * perHour.bytes) / 3600 / 1000),
    }));
    const { bytes, statuses, ...perFiring } = fired;
    info.firings.push({
      state,
      label,
      perFiring,
      bytes,
      bytesWithoutValidators: whole.bytes,
      statuses,
      perHour,
      fleet,
    });
  };
  await measure(
    'unfinished',
    'at the machine, a redemption still pending in the history (the seed: pending, approved, unclaimed, IN_REVIEW)',
  );
  // Every redemption final: the panel completes them.
  for (const r of sandbox().state.redemptions)
    if (!r.refunded && !r.failed) Object.assign(r, { processed: true, partner_status: 'COMPLETE' });
  await measure('settled', 'at the machine, every redemption in the history final');
  await measure('away', 'away: machine locked or idle for 10 min (idle.queryState made to say "locked")');
  info.restored = await bench.inWorker(async ({ name }) => (await chrome.alarms.get(name)) !== undefined, {
    name: alarm.name,
  });
  return info;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

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
  const alarm = await fireAlarm(bench, sandbox);
  const period = alarm.periodInMinutes ?? 0;
  const perHour = alarm.firings.find((f) => f.state === 'settled')?.perHour.requests ?? NaN;
  const fleet = INSTALLS.map((installs) => ({
    installs,
    requestsPerHour: Math.round(installs * perHour),
    requestsPerSecond: Math.round(((installs * perHour) / 3600) * 10) / 10,
  }));
  const jitterNote =
    `Each refresh re-arms a one-shot alarm ${period} min × a random 0.75–1.25 ahead (entrypoints/background/schedule/alarms.ts), ` +
    'so installs drift apart and the average above is also the expected steady rate. An alarm that fell due while the ' +
    'browser was closed does not refresh at start-up: it is moved a random 1–10 min ahead, so browsers started together ' +
    '(mornings, after an update) do not call the panel together. Away from the machine the alarm sends nothing; coming ' +
    'back after a skipped refresh brings the next one to a random 0.5–2 min ahead (one refresh per absence). Reads send ' +
    'the validators of the cached copy, so unchanged data is a 304 without a body.';
  return { popup, options, alarm, perIdleBrowserPerHour: perHour, fleet, jitterNote };
}
