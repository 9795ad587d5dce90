/**
 * In Firefox ESR: a panel that ignores the Idempotency-Key commits a redeem and its answer is lost;
 * the request arrives again (the sandbox's `repeat` fault stands in for the browser re-sending it
 * on a new connection) and the panel refuses that copy for lack of points (402). The refusal speaks
 * for the copy only: the Confirm did charge the points once, and the popup, its header and the
 * history must say so. The popup is opened as a tab: BiDi cannot click the toolbar button.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'puppeteer-core';
import { startSandbox, type RecordedRequest, type Sandbox } from '../sandbox/server';
import { E2E_SANDBOX_PORT } from './config';
import { control, injectFault, serverState } from './control';
import { recordUntrue } from './untrue-watch';
import { byLabel, fillField, launchFirefox, waitForTexts, type FirefoxSession } from './firefox-harness';

const REDEEM = '/v1/panel/redemption';
const BOOKS = 'Northwind Books $10 Gift Card'; // reward 102, 1,000 points
const BOOKS_ID = 102;
/** Covers the reward once, not twice: the re-sent copy is refused. */
const START_BALANCE = 1500;
/** What a refusal used to claim of this Confirm, although the first copy had charged it. */
const UNTRUE = /nothing was charged|could not redeem/i;

let sandbox: Sandbox;
let ff: FirefoxSession;

beforeAll(async () => {
  sandbox = await startSandbox({ port: E2E_SANDBOX_PORT });
  ff = await launchFirefox();
});

afterAll(async () => {
  await ff?.close();
  await sandbox?.close();
});

async function connect(): Promise<void> {
  const options = await ff.openPage('options.html');
  // The build's own panel address sits behind "Advanced".
  await options.waitForSelector('details.advanced > summary');
  if (!(await options.$eval('details.advanced', (d) => d.open))) await options.click('details.advanced > summary');
  await fillField(options, 'Panel address', sandbox.url);
  await fillField(options, 'Personal key', sandbox.token);
  await options.locator(byLabel('Connect', 'button')).click();
  await options.locator(byLabel('Disconnect', 'button')).wait();
  await options.close();
}

const headerBalance = (popup: Page) => popup.$eval('.hdr-balance', (el) => el.textContent).catch(() => null);
/** The title of the reward's outcome card, so a failure shows what the card said instead. */
const cardTitle = (popup: Page) =>
  popup.evaluate((name) => {
    const titles = [...document.querySelectorAll('section[aria-labelledby]')].map(
      (card) => document.getElementById(card.getAttribute('aria-labelledby')!)?.textContent ?? '',
    );
    return titles.find((title) => title.includes(name)) ?? null;
  }, BOOKS);
const booksCount = async () =>
  (await serverState({ sandbox })).redemptions.filter((r) => r.reward.id === BOOKS_ID).length;

test('a re-sent copy refused with 402 after the first committed: "Redeemed", the balance after one charge, never "nothing was charged"', async () => {
  const started = performance.now();
  // Set before the extension first reads it.
  await control({ sandbox }, '/state', 'PATCH', { balance: START_BALANCE });
  await connect();
  const before = await booksCount();
  await control({ sandbox }, '/idempotency', 'PATCH', { honour: false });
  await injectFault({ sandbox }, { path: REDEEM, repeat: true });

  const popup = await ff.openPage('popup.html');
  await expect.poll(() => headerBalance(popup)).toBe('1,500 points');
  const untrueSeen = await recordUntrue(popup, UNTRUE);
  await popup.locator(byLabel(`Redeem ${BOOKS}`, 'button')).click();
  await popup.locator(byLabel(`Confirm redeeming ${BOOKS}`, 'button')).click();

  await expect.poll(() => cardTitle(popup), { timeout: 30_000 }).toBe(`Redeemed ${BOOKS}`);
  // As a screen reader finds it: the card is a region named by its title.
  await popup.waitForSelector(byLabel(`Redeemed ${BOOKS}`, 'region'));
  expect((await serverState({ sandbox })).balance).toBe(START_BALANCE - 1000);
  await expect.poll(() => headerBalance(popup)).toBe('500 points');
  expect(await untrueSeen()).toEqual([]);

  // What the panel saw: the Confirm and the browser's copy of it, one redemption made.
  const { requests } = await control<{ requests: RecordedRequest[] }>({ sandbox }, '/requests');
  const redeems = requests.filter((r) => r.path === REDEEM && r.method !== 'OPTIONS');
  expect(redeems.map((r) => r.repeated ?? false)).toEqual([false, true]);
  expect(await booksCount()).toBe(before + 1);

  // Reopened, the settled card is gone, as it goes once seen; nothing in its place says the
  // points were kept.
  await popup.close();
  const reopened = await ff.openPage('popup.html');
  const untrueOnReopen = await recordUntrue(reopened, UNTRUE);
  await expect.poll(() => headerBalance(reopened)).toBe('500 points');
  expect(await untrueOnReopen()).toEqual([]);

  // The history lists it, newest first, once.
  const options = await ff.openPage('options.html#history');
  await waitForTexts(options, [BOOKS]);
  const names = () => options.$$eval('.history-row .reward-name', (els) => els.map((el) => el.textContent));
  await expect.poll(async () => (await names()).filter((n) => n === BOOKS).length).toBe(before + 1);
  expect((await names())[0]).toBe(BOOKS);
  console.log(`resent-refused (Firefox ESR): ${Math.round(performance.now() - started)} ms`);
}, 90_000);
