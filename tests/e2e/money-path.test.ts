/**
 * The money path in Chromium: a lost answer to a redeem is never told as a refusal, the history
 * settles it, and an account switch during a slow refresh leaves nothing of the old account behind.
 */
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { CHECK_AFTER_MS } from '../../entrypoints/background/redemption/machine';
import type { LedgerEntry, SessionInfo } from '../../utils/storage-items';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { SEED_B } from '../unit/accounts';
import { control, injectFault, requestCount, serverState, stored } from './control';
import { connectedPerTest } from './harness';

const REDEEM = '/v1/panel/redemption';
/** The background's alarm for the history checks of an outcome not known (redemption/service.ts). */
const CHECK_ALARM = 'redemption-check';
const COFFEE = 'Bluefin Coffee $5 Gift Card';
/** What the popup must never say of an outcome it does not know. */
const OVERSTATEMENT = /nothing was (charged|spent)|did not go through|not redeemed/i;

const { start, cleanups } = connectedPerTest();

async function confirmRedeem(popup: Page, name: string): Promise<void> {
  await popup.getByRole('button', { name: `Redeem ${name}` }).click();
  await popup.getByRole('button', { name: `Confirm redeeming ${name}` }).click();
}

/** Watches the popup's text for as long as the outcome is open: it must never claim a refusal. */
function neverOverstates(popup: Page): { stop: () => Promise<string[]> } {
  const seen: string[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const text = await popup
        .locator('body')
        .innerText()
        .catch(() => '');
      if (OVERSTATEMENT.test(text)) seen.push(text);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return seen;
    },
  };
}

test('a panel that commits after the time-out: never "nothing charged", then redeemed with the new balance, one request', async () => {
  const ext = await start();
  // The client gives up after 10 s; this panel commits at 12 s.
  await injectFault(ext, { path: REDEEM, delayMs: 12_000 });
  const popup = await ext.openPage('popup.html');
  const watch = neverOverstates(popup);
  const pressed = Date.now();
  await confirmRedeem(popup, COFFEE);
  await expect.poll(async () => (await stored<LedgerEntry>(ext, 'ledger'))?.state).toBe('unknown');
  await expect.poll(async () => (await serverState(ext)).balance).toBe(2000);
  // The first scheduled history check settles it. Its alarm is set for 30 s after sending; the
  // test runs it now, as the browser would then (the alarm's own handler, not Check now).
  const worker = await ext.worker();
  const scheduled = () => worker.evaluate(async (name) => (await chrome.alarms.get(name))?.scheduledTime, CHECK_ALARM);
  await expect.poll(scheduled).toBeGreaterThanOrEqual(pressed + CHECK_AFTER_MS[0]);
  await worker.evaluate((name) => chrome.alarms.create(name, { when: Date.now() }), CHECK_ALARM);
  await popup.getByText(`Redeemed ${COFFEE}`).waitFor();
  expect(await watch.stop()).toEqual([]);
  await popup.getByText('2,000').first().waitFor();
  expect(await requestCount(ext, REDEEM)).toBe(1);
}, 120_000);

test('a panel that commits and then answers 500: redeemed with the new balance, one request', async () => {
  const ext = await start();
  await injectFault(ext, { path: REDEEM, commit: true, status: 500 });
  const popup = await ext.openPage('popup.html');
  const watch = neverOverstates(popup);
  await confirmRedeem(popup, COFFEE);
  await popup.getByText(`Redeemed ${COFFEE}`).waitFor({ timeout: 30_000 });
  expect(await watch.stop()).toEqual([]);
  await popup.getByText('2,000').first().waitFor();
  expect(await requestCount(ext, REDEEM)).toBe(1);
  expect((await serverState(ext)).balance).toBe(2000);
});

test('a price raised past the balance while confirming: asked again with the points still needed, Confirm off, focus kept in the dialog, nothing sent', async () => {
  const ext = await start();
  const popup = await ext.openPage('popup.html');
  await popup.getByRole('button', { name: `Redeem ${COFFEE}` }).click();
  // The panel raises the reward from 500 to 3,000 points after the popup listed it; the balance is 2,500.
  const { rewards } = await serverState(ext);
  await control(ext, '/state', 'PATCH', {
    rewards: rewards.map((r) => (r.name === COFFEE ? { ...r, reward_point_cost: 3000 } : r)),
  });
  const confirm = popup.getByRole('button', { name: `Confirm redeeming ${COFFEE}` });
  await confirm.click();
  await popup
    .getByRole('alertdialog')
    .getByText(`Redeem ${COFFEE} for 3,000 points? You need 500 more points.`)
    .waitFor();
  expect(await confirm.isDisabled()).toBe(true);
  // Confirm off keeps the focus it was pressed with: in the dialog, not on the page behind it.
  await expect
    .poll(() => popup.getByRole('alertdialog').evaluate((dialog) => dialog.contains(document.activeElement)))
    .toBe(true);
  expect(await popup.getByRole('alertdialog').textContent()).not.toMatch(/-500|−500/);
  expect(await requestCount(ext, REDEEM)).toBe(0);
  expect((await serverState(ext)).balance).toBe(2500);
});

test('disconnect during a slow refresh, connect another account: only its own balance and history, and no reconnect prompt', async () => {
  const ext = await start();
  const other: Sandbox = await startSandbox({ seed: SEED_B, token: 'e2e-token-account-b' });
  cleanups.push(() => other.close());
  // The old account's answers are held until the other account is connected, and the rewards one
  // then says the token is no longer good.
  const [rewards, history] = ['/v1/panel/rewards', '/v1/panel/redemptions'];
  const before = [await requestCount(ext, rewards), await requestCount(ext, history)];
  await injectFault(ext, { path: rewards, held: true, status: 401 });
  await injectFault(ext, { path: history, held: true });
  const popup = await ext.openPage('popup.html');
  await popup.getByRole('button', { name: 'Refresh: your points and rewards', exact: true }).click();
  await expect.poll(() => requestCount(ext, rewards)).toBeGreaterThan(before[0]!);
  await expect.poll(() => requestCount(ext, history)).toBeGreaterThan(before[1]!);

  const options = await ext.openPage('options.html');
  await options.getByRole('button', { name: 'Disconnect' }).click();
  await options.getByRole('button', { name: 'Yes, disconnect' }).click();
  await options.close();
  await ext.connect({ url: other.url, token: other.token });

  // The old answers land now; then a second for any of them to be wrongly taken up.
  expect((await control<{ released: number }>(ext, '/release', 'POST')).released).toBe(2);
  await ext.sandbox.idle();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const session = await stored<SessionInfo>(ext, 'session');
  expect(session).toMatchObject({ connected: true, baseUrl: other.url, rejected: false });
  const reopened = await ext.openPage('popup.html');
  await reopened.getByText('9,000').first().waitFor();
  await reopened.getByText(`B ${COFFEE}`).first().waitFor();
  expect(await reopened.getByText(/no longer accepts|sign in again|reconnect/i).count()).toBe(0);
  // The history is kept in pages (utils/paged-item.ts): the head says how many.
  const head = await stored<{ pages: number; total: number }>(ext, 'cache:history');
  const pages = await Promise.all(
    Array.from({ length: head?.pages ?? 0 }, (_, i) => stored<Array<{ id: number }>>(ext, `cache:history:${i}`)),
  );
  expect(pages.flat()).toHaveLength(head?.total ?? -1);
  expect(pages.flat().every((r) => r!.id >= 100_000)).toBe(true);
}, 90_000);
