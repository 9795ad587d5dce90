/**
 * In Chromium: a panel that ignores the Idempotency-Key commits a redeem and its answer is lost;
 * the request arrives again (the sandbox's `repeat` fault stands in for the browser re-sending it
 * on a new connection) and the panel refuses that copy for lack of points (402). The refusal speaks
 * for the copy only: the Confirm did charge the points once, and the popup, its header and the
 * history must say so.
 */
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import type { RecordedRequest } from '../sandbox/server';
import { control, injectFault, serverState } from './control';
import { recordUntrue } from './untrue-watch';
import { connectedPerTest, launchExtension, type ExtensionSession } from './harness';

const REDEEM = '/v1/panel/redemption';
const BOOKS = 'Northwind Books $10 Gift Card'; // reward 102, 1,000 points
const BOOKS_ID = 102;
/** Covers the reward once, not twice: the re-sent copy is refused. */
const START_BALANCE = 1500;
/** What a refusal used to claim of this Confirm, although the first copy had charged it. */
const UNTRUE = /nothing was charged|could not redeem/i;

const { cleanups } = connectedPerTest();

/** Connected to a sandbox whose balance is set before the extension first reads it. */
async function startWithBalance(balance: number): Promise<ExtensionSession> {
  const ext = await launchExtension();
  cleanups.push(() => ext.close());
  await control(ext, '/state', 'PATCH', { balance });
  await ext.connect();
  return ext;
}

const headerBalance = (popup: Page) =>
  popup
    .locator('.hdr-balance')
    .textContent({ timeout: 1000 })
    .catch(() => null);
/** The title of the reward's outcome card, so a failure shows what the card said instead. */
const cardTitle = (popup: Page) =>
  popup
    .getByRole('region', { name: BOOKS })
    .evaluate((card) => document.getElementById(card.getAttribute('aria-labelledby')!)?.textContent)
    .catch(() => null);
const booksCount = async (ext: ExtensionSession) =>
  (await serverState(ext)).redemptions.filter((r) => r.reward.id === BOOKS_ID).length;

test('a re-sent copy refused with 402 after the first committed: "Redeemed", the balance after one charge, never "nothing was charged"', async () => {
  const started = performance.now();
  const ext = await startWithBalance(START_BALANCE);
  const before = await booksCount(ext);
  await control(ext, '/idempotency', 'PATCH', { honour: false });
  await injectFault(ext, { path: REDEEM, repeat: true });

  const popup = await ext.openPage('popup.html');
  await expect.poll(() => headerBalance(popup)).toBe('1,500 points');
  const untrueSeen = await recordUntrue(popup, UNTRUE);
  await popup.getByRole('button', { name: `Redeem ${BOOKS}` }).click();
  await popup.getByRole('button', { name: `Confirm redeeming ${BOOKS}` }).click();

  await expect.poll(() => cardTitle(popup), { timeout: 30_000 }).toBe(`Redeemed ${BOOKS}`);
  const state = await serverState(ext);
  expect(state.balance).toBe(START_BALANCE - 1000);
  await expect.poll(() => headerBalance(popup)).toBe('500 points');
  expect(await untrueSeen()).toEqual([]);

  // What the panel saw: the Confirm and the browser's copy of it, one redemption made.
  const { requests } = await control<{ requests: RecordedRequest[] }>(ext, '/requests');
  const redeems = requests.filter((r) => r.path === REDEEM && r.method !== 'OPTIONS');
  expect(redeems.map((r) => r.repeated ?? false)).toEqual([false, true]);
  expect(await booksCount(ext)).toBe(before + 1);

  // Reopened, the settled card is gone, as it goes once seen; nothing in its place says the
  // points were kept.
  await popup.close();
  const reopened = await ext.openPage('popup.html');
  const untrueOnReopen = await recordUntrue(reopened, UNTRUE);
  await expect.poll(() => headerBalance(reopened)).toBe('500 points');
  expect(await untrueOnReopen()).toEqual([]);

  // The history lists it, newest first, once.
  const options = await ext.openPage('options.html#history');
  const rows = options.locator('.history-row');
  await rows.first().waitFor();
  await expect.poll(() => rows.filter({ hasText: BOOKS }).count()).toBe(before + 1);
  expect(await rows.first().locator('.reward-name').textContent()).toBe(BOOKS);
  console.log(`resent-refused (Chromium): ${Math.round(performance.now() - started)} ms`);
}, 90_000);

test('a re-sent copy refused with 402 while the panel writes its history a moment late: "the points were taken", checked, then "Redeemed"', async () => {
  const ext = await startWithBalance(START_BALANCE);
  await control(ext, '/idempotency', 'PATCH', { honour: false });
  // The balance moves at once; the history shows the redemption only once the test lets it catch up
  // below (a lag of minutes), however long the steps before take.
  await control(ext, '/state', 'PATCH', { historyLagMs: 600_000 });
  await injectFault(ext, { path: REDEEM, repeat: true });

  const popup = await ext.openPage('popup.html');
  await expect.poll(() => headerBalance(popup)).toBe('1,500 points');
  const untrueSeen = await recordUntrue(popup, UNTRUE);
  await popup.getByRole('button', { name: `Redeem ${BOOKS}` }).click();
  await popup.getByRole('button', { name: `Confirm redeeming ${BOOKS}` }).click();

  // The panel refused the copy, the history shows nothing yet, the balance shows 1,000 points gone.
  await expect.poll(() => cardTitle(popup), { timeout: 30_000 }).toBe(`Checking whether ${BOOKS} went through`);
  const card = popup.getByRole('region', { name: BOOKS });
  await expect
    .poll(() => card.textContent())
    .toMatch(/your balance then went down by 1,000 points: the points were taken/);

  // Once the panel's history has caught up, Check now finds it.
  await control(ext, '/state', 'PATCH', { historyLagMs: 0 });
  await card.getByRole('button', { name: 'Check now' }).click();
  await expect.poll(() => cardTitle(popup), { timeout: 30_000 }).toBe(`Redeemed ${BOOKS}`);
  await expect.poll(() => headerBalance(popup)).toBe('500 points');
  expect(await untrueSeen()).toEqual([]);
}, 90_000);
