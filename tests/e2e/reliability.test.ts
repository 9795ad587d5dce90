/**
 * Reliability in Chromium: redemptions survive a stopped worker without being sent twice, network
 * faults end in the right state without a request storm, and profile edits are never lost.
 */
import type { Page } from 'playwright-core';
import { afterEach, expect, test } from 'vitest';
import type { LedgerEntry, SyncStates } from '../../utils/storage-items';
import type { RecordedRequest } from '../sandbox/server';
import { control, injectFault, requestCount, serverState, stored } from './control';
import { launchExtension, type ExtensionSession, type LaunchOptions } from './harness';

const REDEEM = '/v1/panel/redemption';
const REWARDS = '/v1/panel/rewards';
const COFFEE = 'Bluefin Coffee $5 Gift Card';

const sessions: ExtensionSession[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
});

async function start(options: LaunchOptions = {}): Promise<ExtensionSession> {
  const ext = await launchExtension({ ...options, connect: true });
  sessions.push(ext);
  return ext;
}

/** Every API request the sandbox received, preflights not counted. */
async function apiRequests(ext: ExtensionSession): Promise<number> {
  const { requests } = await control<{ requests: RecordedRequest[] }>(ext, '/requests');
  return requests.filter((r) => r.method !== 'OPTIONS').length;
}

/** The N of "Try again in N seconds." in a text; a failure of the test when it says no such thing. */
function secondsTold(text: string | null): number {
  const told = /Try again in (\d+) seconds?\./.exec(text ?? '');
  if (!told) throw new Error(`no "Try again in N seconds." in ${JSON.stringify(text)}`);
  return Number(told[1]);
}

async function confirmRedeem(popup: Page, name: string): Promise<void> {
  await popup.getByRole('button', { name: `Redeem ${name}` }).click();
  await popup.getByRole('button', { name: `Confirm redeeming ${name}` }).click();
}

async function waitForLedger(ext: ExtensionSession, state: LedgerEntry['state']): Promise<void> {
  await expect.poll(async () => (await stored<LedgerEntry>(ext, 'ledger'))?.state).toBe(state);
}

/**
 * Confirms a redeem the panel holds (a `held` fault), and stops the worker once the panel has it
 * and before it answers, however long either takes; then lets the panel go on. Says how many
 * requests the panel held (1).
 */
async function stopWorkerMidRedeem(ext: ExtensionSession, fault: { drop?: true }): Promise<number> {
  await injectFault(ext, { path: REDEEM, held: true, ...fault });
  const popup = await ext.openPage('popup.html');
  await confirmRedeem(popup, COFFEE);
  await waitForLedger(ext, 'pending');
  await expect.poll(() => requestCount(ext, REDEEM)).toBe(1);
  await popup.close();
  await ext.stopWorker();
  return (await control<{ released: number }>(ext, '/release', 'POST')).released;
}

test('a worker stopped mid-redeem does not resend; on restart the history shows it went through', async () => {
  const ext = await start();
  expect(await stopWorkerMidRedeem(ext, {})).toBe(1);

  // The panel finishes the request it already received.
  await expect.poll(async () => (await serverState(ext)).balance).toBe(2000);

  const reopened = await ext.openPage('popup.html');
  await reopened.getByText(`Redeemed ${COFFEE}`).waitFor();
  expect(await requestCount(ext, REDEEM)).toBe(1);
  expect((await serverState(ext)).redemptions).toHaveLength(10);
});

test('a worker stopped mid-redeem that the panel never completed is reported as unknown, not retried', async () => {
  const ext = await start();
  // The panel then drops the connection without doing anything.
  expect(await stopWorkerMidRedeem(ext, { drop: true })).toBe(1);

  const reopened = await ext.openPage('popup.html');
  await reopened.getByText(`Checking whether ${COFFEE} went through`).waitFor();
  expect(await requestCount(ext, REDEEM)).toBe(1);
  expect((await serverState(ext)).balance).toBe(2500);
});

test('a burst of server errors shows the cached data as stale with a retry, after a bounded number of requests', async () => {
  const ext = await start();
  const popup = await ext.openPage('popup.html');
  await popup.getByText('2,500').first().waitFor();
  const before = await requestCount(ext, REWARDS);
  await injectFault(ext, { path: REWARDS, status: 503, times: 50 });

  await popup.getByRole('button', { name: 'Refresh: your points and rewards', exact: true }).click();
  const alert = popup.getByRole('alert');
  await alert.waitFor();
  expect(await alert.textContent()).toMatch(/problem|unavailable/i);
  await expect.poll(() => popup.getByText(COFFEE, { exact: true }).first().isVisible()).toBe(true);
  // One refresh: the first try and two retries with backoff, never a storm.
  expect((await requestCount(ext, REWARDS)) - before).toBe(3);
  await popup.getByRole('button', { name: 'Retry: your points and rewards', exact: true }).waitFor();
});

/**
 * A panel that answers 429 with `Retry-After: 120` is not asked again before then (design §5,
 * "429: wait"; entrypoints/background/auth/panel-wait.ts), driven as a panelist would: Refresh
 * tells the wait; Retry meanwhile is refused unsent, telling what is left; a Confirm sends nothing
 * and says nothing was charged. The worker's clock cannot be moved, so the end of the wait is the
 * unit test's (tests/unit/background-panel-wait.test.ts). It carries on the first 429's test, so
 * needs no launch of its own; this file gives each test its own browser, so the wait (the
 * session's, in the worker's memory) and the fault's unused answers end with it.
 *
 * Deliberate breakage it failed on: `sessionApi` (auth/api.ts) not wrapping with `waitingOnPanel`
 * (the Retry reached the panel: "catalogue reads after the Retry: expected 3 to be 2").
 */
test('429 with a long Retry-After is not retried, tells the wait, and nothing is sent before it ends', async () => {
  const ext = await start();
  const popup = await ext.openPage('popup.html');
  await popup.getByText('2,500').first().waitFor();
  const before = await requestCount(ext, REWARDS);
  // A panel still busy: were anything asked again, it would be answered 429 again.
  await injectFault(ext, { path: REWARDS, status: 429, headers: { 'Retry-After': '120' }, times: 5 });
  await popup.getByRole('button', { name: 'Refresh: your points and rewards', exact: true }).click();
  const alert = popup.getByRole('alert').filter({ hasText: 'Panel Rewards is busy right now' });
  // stepRetryInSeconds: the panel's own figure, the client having given up at once (over 5 s).
  await alert.getByText('Try again in 120 seconds.', { exact: true }).waitFor();
  expect((await requestCount(ext, REWARDS)) - before).toBe(1);

  // Retry in the wait: refused before it leaves, the popup telling what is left of the wait.
  const sent = await apiRequests(ext);
  const tried = (await stored<SyncStates>(ext, 'sync'))!.rewards.attemptedAt;
  await popup.getByRole('button', { name: 'Retry: your points and rewards', exact: true }).click();
  await expect
    .poll(async () => {
      const { rewards } = (await stored<SyncStates>(ext, 'sync'))!;
      return !rewards.loading && rewards.attemptedAt > tried;
    })
    .toBe(true);
  expect(await requestCount(ext, REWARDS), 'catalogue reads after the Retry').toBe(before + 1);
  expect(await apiRequests(ext), 'API requests after the Retry').toBe(sent);
  await expect.poll(() => alert.textContent()).toMatch(/Try again in \d+ seconds?\./);
  expect(secondsTold(await alert.textContent())).toBeLessThanOrEqual(120);

  // Redeem → Confirm in the wait: its history read first is refused, so the redeem never leaves.
  await confirmRedeem(popup, COFFEE);
  const refused = popup.getByRole('alert').filter({ hasText: 'The redemption was not sent, so nothing was charged' });
  await refused.waitFor();
  const told = await refused.textContent();
  expect(told).toMatch(
    /^The redemption was not sent, so nothing was charged: your redemption history has to be read first, and that failed\. Panel Rewards is busy right now\. Try again in \d+ seconds?\.$/,
  );
  expect(secondsTold(told)).toBeLessThanOrEqual(120);
  expect(await requestCount(ext, REDEEM)).toBe(0);
  expect(await apiRequests(ext)).toBe(sent);
  expect((await serverState(ext)).balance).toBe(2500);
});

test('a dead server: the popup shows the cache, marked stale, and offers a retry', async () => {
  const ext = await start();
  const popup = await ext.openPage('popup.html');
  await popup.getByText('2,500').first().waitFor();
  await ext.sandbox.close();
  await popup.getByRole('button', { name: 'Refresh: your points and rewards', exact: true }).click();
  await popup.getByRole('alert').waitFor();
  expect(await popup.getByText('2,500').first().isVisible()).toBe(true);
  await popup.getByRole('button', { name: 'Retry: your points and rewards', exact: true }).waitFor();
  expect(await popup.getByRole('alert').textContent()).toMatch(/reach|connection|offline/i);
});

test.each([
  ['a server error', { status: 500 }],
  ['a rejected token', { status: 401, body: '{"message":"Token expired"}' }],
])('a profile save that meets %s keeps every edit', async (_label, fault) => {
  const ext = await start();
  const options = await ext.openPage('options.html');
  const firstName = options.getByLabel('What is your first name?');
  await firstName.fill('Robin');
  await injectFault(ext, { path: '/v1/panel/variables/data', method: 'POST', ...fault });
  await options.getByRole('button', { name: 'Save changes' }).click();
  await options.getByRole('alert').first().waitFor();
  expect(await firstName.inputValue()).toBe('Robin');
  expect((await serverState(ext)).values.FIRST_NAME).toBe('Jordan');
});

test('unsaved profile edits survive a browser restart', async () => {
  const first = await start();
  const options = await first.openPage('options.html');
  await options.getByLabel('What is your first name?').fill('Robin');
  await expect
    .poll(async () => (await stored<Record<string, unknown>>(first, 'draft:profile'))?.FIRST_NAME)
    .toBe('Robin');
  await first.close({ keepProfile: true });
  sessions.splice(sessions.indexOf(first), 1);

  const again = await launchExtension({ userDataDir: first.userDataDir, sandbox: first.sandbox });
  sessions.push(again);
  const reopened = await again.openPage('options.html');
  const field = reopened.getByLabel('What is your first name?');
  await expect.poll(() => field.inputValue()).toBe('Robin');
  await first.sandbox.close();
});
