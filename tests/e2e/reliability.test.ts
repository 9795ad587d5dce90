/**
 * Reliability in Chromium: redemptions survive a stopped worker without being sent twice, network
 * faults end in the right state without a request storm, and profile edits are never lost.
 */
import type { Page } from 'playwright-core';
import { afterEach, expect, test } from 'vitest';
import type { LedgerEntry } from '../../utils/storage-items';
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
  const ext = await launchExtension(options);
  sessions.push(ext);
  await ext.connect();
  return ext;
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

test('429 with a long Retry-After is not retried and tells the panelist to wait', async () => {
  const ext = await start();
  const popup = await ext.openPage('popup.html');
  await popup.getByText('2,500').first().waitFor();
  const before = await requestCount(ext, REWARDS);
  await injectFault(ext, { path: REWARDS, status: 429, headers: { 'Retry-After': '120' }, times: 5 });
  await popup.getByRole('button', { name: 'Refresh: your points and rewards', exact: true }).click();
  const alert = popup.getByRole('alert');
  await alert.waitFor();
  expect(await alert.textContent()).toMatch(/2 min|120 s|minutes|wait/i);
  expect((await requestCount(ext, REWARDS)) - before).toBe(1);
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
