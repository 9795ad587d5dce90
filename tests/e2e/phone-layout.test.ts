/**
 * The popup and the options page on a phone, in Chromium with mobile and touch emulation: at
 * 360×740 and 412×915 the popup fills the width, nothing crosses the right edge, the actions a
 * panelist comes for (Redeem, Confirm, Sign in, Answer now) are at least 44×44 CSS px and every
 * other control at least 24×24 (WCAG 2.5.8), and no :hover rule reveals anything. Prints the
 * smallest targets of each screen.
 */
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { launchExtension, type ExtensionSession } from './harness';
import { measureTargets, PHONE_SIZES, smallest, targetFailures } from './phone-targets';
import { signInBuild } from './sign-in-build';

let extensionDir: string;
const sessions: ExtensionSession[] = [];
const table: Array<Record<string, string | number>> = [];

beforeAll(() => {
  // The sign-in build: its first run offers "Sign in", one of the primary actions.
  extensionDir = signInBuild('chrome');
}, 240_000);

afterAll(() => {
  console.table(table);
});

afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
});

async function check(page: Page, where: string): Promise<void> {
  const measured = await page.evaluate(measureTargets);
  table.push(...smallest(where, measured, 3));
  expect(measured.targets.length, `${where}: no controls found`).toBeGreaterThan(0);
  expect.soft(targetFailures(measured), where).toEqual([]);
}

/** Connects with the personal key, behind its own link in a build that offers sign-in. */
async function connectWithKey(ext: ExtensionSession): Promise<void> {
  const page = await ext.openPage('options.html#personal-key');
  const address = page.getByLabel('Panel address');
  await page.getByLabel('Personal key').waitFor();
  if (!(await address.isVisible())) await page.getByText('Advanced', { exact: true }).tap();
  await address.fill(ext.sandbox.url);
  await page.getByLabel('Personal key').fill(ext.sandbox.token);
  await page.getByRole('button', { name: 'Connect', exact: true }).tap();
  await page.getByRole('button', { name: 'Disconnect' }).waitFor();
  await page.close();
}

for (const size of PHONE_SIZES) {
  test(`at ${size.width}×${size.height}: the popup fills the width and every target is large enough, connected or not; so is the options page`, async () => {
    const ext = await launchExtension({ extensionDir, phone: size });
    sessions.push(ext);
    const at = `${size.width}`;

    const firstRun = await ext.openPage('popup.html');
    // The emulation holds: what a phone's browser reports, and what the layout is keyed on.
    expect(
      await firstRun.evaluate(() => [
        matchMedia('(hover: none) and (pointer: coarse)').matches,
        navigator.maxTouchPoints > 0,
      ]),
    ).toEqual([true, true]);
    await firstRun.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    // The popup is the whole screen on a phone, not a 380 px column in it.
    expect(await firstRun.evaluate(() => document.body.getBoundingClientRect().width)).toBe(size.width);
    await check(firstRun, `${at} popup, first run`);
    await firstRun.close();

    const signIn = await ext.openPage('options.html');
    await signIn.getByRole('button', { name: 'Sign in to Panel Rewards', exact: true }).waitFor();
    await check(signIn, `${at} options, not connected`);
    await signIn.close();

    await connectWithKey(ext);
    const popup = await ext.openPage('popup.html');
    await popup.locator('.reward').first().waitFor();
    await popup.getByRole('link', { name: 'Answer now' }).waitFor();
    await popup.getByRole('region', { name: 'Latest redemption' }).waitFor();
    await popup.waitForFunction(() => !document.querySelector('main[aria-busy="true"]'));
    expect(await popup.evaluate(() => document.body.getBoundingClientRect().width)).toBe(size.width);
    await check(popup, `${at} popup, rewards`);
    await popup
      .getByRole('button', { name: /^Redeem / })
      .first()
      .tap();
    await popup
      .getByRole('alertdialog')
      .getByRole('button', { name: /^Confirm/ })
      .waitFor();
    await check(popup, `${at} popup, confirm`);
    await popup.close();

    const options = await ext.openPage('options.html');
    await options.locator('.history-row').first().waitFor();
    await options.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    await check(options, `${at} options, connected`);
    await options.close();

    const answering = await ext.openPage('options.html#answer');
    await answering.getByRole('button', { name: 'Save & next' }).waitFor();
    await check(answering, `${at} options, answering`);
    await answering.close();
  });
}
