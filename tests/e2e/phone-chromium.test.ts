/**
 * A panelist with only a phone, in Chromium at 412×915 with mobile and touch emulation, every
 * action a tap: the first run offers Sign in; without `identity` (no-identity-build.ts) the sign-in
 * goes through a tab; Redeem → Confirm ends in an outcome the panel's history bears out; Answer now
 * → fill → Save & next saves the answer. Writes phone-popup.png and phone-options.png on the way,
 * into E2E_PICTURES_DIR (config.ts): the README's, when `npm run screenshots` runs it.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { OAUTH_PATHS, SANDBOX_EMAIL, SANDBOX_PASSWORD } from '../sandbox/oauth';
import { E2E_PICTURES_DIR } from './config';
import { serverState } from './control';
import { launchExtension, type ExtensionSession } from './harness';
import { noIdentityBuild } from './no-identity-build';
import { measureTargets, targetFailures } from './phone-targets';

const PHONE = { width: 412, height: 915 };
const COFFEE = 'Bluefin Coffee $5 Gift Card';
const SHOTS = E2E_PICTURES_DIR;

let ext: ExtensionSession;
let popup: Page;

beforeAll(async () => {
  ext = await launchExtension({ extensionDir: noIdentityBuild('chrome'), phone: PHONE });
}, 240_000);

afterAll(async () => {
  await ext?.close();
});

/** Waits for the popup's own refresh to end, so a picture catches no spinner mid-turn. */
const settled = (page: Page) => page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));

test('first run: the phone-sized popup offers one way in, Sign in, as a full-size target', async () => {
  popup = await ext.openPage('popup.html');
  expect(
    await popup.evaluate(() => [
      matchMedia('(hover: none) and (pointer: coarse)').matches,
      navigator.maxTouchPoints > 0,
    ]),
  ).toEqual([true, true]);
  const signIn = popup.getByRole('button', { name: 'Sign in', exact: true });
  await signIn.waitFor();
  const box = await signIn.boundingBox();
  expect(Math.min(box!.width, box!.height)).toBeGreaterThanOrEqual(44);
});

test('Sign in opens a tab at the authorization server; the panelist signs in by taps; the tab closes and the popup shows the balance', async () => {
  const opened = ext.context.waitForEvent('page', { predicate: (p) => p.url().includes(OAUTH_PATHS.authorize) });
  await popup.getByRole('button', { name: 'Sign in', exact: true }).tap();
  const tab = await opened;
  await tab.getByLabel('E-mail').tap();
  await tab.getByLabel('E-mail').fill(SANDBOX_EMAIL);
  await tab.getByLabel('Password').tap();
  await tab.getByLabel('Password').fill(SANDBOX_PASSWORD);
  await tab.getByRole('button', { name: 'Sign in' }).tap();
  const closed = tab.waitForEvent('close');
  await tab.getByRole('button', { name: 'Allow' }).tap();
  await closed;
  await expect.poll(() => popup.locator('.hdr-balance').textContent()).toBe('2,500 points');
  expect(ext.sandbox.requests.some((r) => r.path === OAUTH_PATHS.done)).toBe(true);
});

test('the connected popup fills the phone’s width; its picture is written', async () => {
  await popup.reload();
  await popup.locator('.reward').first().waitFor();
  await popup.getByRole('region', { name: 'Latest redemption' }).waitFor();
  await settled(popup);
  const measured = await popup.evaluate(measureTargets);
  expect(targetFailures(measured)).toEqual([]);
  expect(await popup.evaluate(() => document.body.getBoundingClientRect().width)).toBe(PHONE.width);
  await popup.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  await popup.screenshot({ path: `${SHOTS}/phone-popup.png`, animations: 'disabled' });
});

test('Redeem → Confirm by taps: the outcome is the one the panel recorded, and the history shows it', async () => {
  await popup.getByRole('button', { name: `Redeem ${COFFEE}` }).tap();
  await popup
    .getByRole('alertdialog')
    .getByRole('button', { name: `Confirm redeeming ${COFFEE}` })
    .tap();
  const outcome = popup.getByRole('region', { name: `Redeemed ${COFFEE}` });
  await outcome.waitFor();
  await expect.poll(() => outcome.textContent()).toContain('Your balance is now 2,000 points.');
  // Exactly one redemption was made, of this reward, and it is what the history now lists first.
  const coffee = ext.sandbox.state.rewards.find((r) => r.name === COFFEE)!;
  expect(new Set(ext.sandbox.made.map((m) => m.rewardId))).toEqual(new Set([coffee.id]));
  expect(new Set(ext.sandbox.made.map((m) => m.id)).size).toBe(1);
  const state = await serverState(ext);
  expect(state.balance).toBe(2000);
  const options = await ext.openPage('options.html#history');
  await options.locator('.history-row').first().filter({ hasText: COFFEE }).waitFor();
  await options.close();
  await outcome.getByRole('button', { name: `Done: ${COFFEE}`, exact: true }).tap();
});

test('Answer now → fill → Save & next by taps saves the answer; the options page’s picture is written', async () => {
  const opened = ext.context.waitForEvent('page');
  await popup.getByRole('link', { name: 'Answer now' }).tap();
  const options = await opened;
  const heading = options.locator('#answer-flow-heading');
  await heading.filter({ hasText: /^Question 1 of / }).waitFor();
  const field = options.getByLabel('Postal code', { exact: true });
  await field.tap();
  await field.fill('10115');
  await settled(options);
  await options.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  await options.screenshot({ path: `${SHOTS}/phone-options.png`, animations: 'disabled' });
  expect(targetFailures(await options.evaluate(measureTargets))).toEqual([]);
  await options.getByRole('button', { name: 'Save & next' }).tap();
  await heading.filter({ hasText: /^Question 2 of / }).waitFor();
  expect((await serverState(ext)).values).toMatchObject({ POSTAL_CODE: '10115' });
  await options.close();
});
