/**
 * `npm run screenshots`: the README's pictures of the popup and the options page, in the light and
 * the dark colour scheme, taken from the end-to-end build in Chromium against the sandbox:
 * tests/e2e/screenshots/{popup,options,options-balance,profile-answer}-{light,dark}.png, the welcome a
 * new install opens, welcome-{light,dark}.png, and the popup, Confirm and the options page in Arabic,
 * right to left: {popup,popup-confirm,options}-ar-{light,dark}.png. Then the phone pictures, phone-{popup,options}.png, taken by the phone run's taps
 * (tests/e2e/phone-chromium.test.ts) pointed here: a test run writes them under .output instead.
 *
 * Uses the browser-test harness; builds the extension the way the browser tests do when that build
 * is missing. The sandbox listens on a free port of its own; the phone run's on E2E_SANDBOX_PORT.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startSandbox } from '../sandbox/server';
import { E2E_EXTENSION_DIR } from '../e2e/config';
import { seedBalanceHistory } from '../e2e/balance-samples';
import { plainBuild } from '../e2e/builds';
import type { Locator, Page } from 'playwright-core';
import { launchExtension, type ExtensionSession } from '../e2e/harness';
import { welcomeTab } from '../e2e/welcome-tab';
import { catalogueOf, connectBy, sayIn } from '../e2e/words';

const OUT = 'tests/e2e/screenshots';
const DAY_MS = 86_400_000;

/**
 * Five weeks of balance changes, as the background records them when it reads the balance (one
 * redemption among them), ending at the sandbox's 2,500: a session of a few seconds has no history
 * to draw, so the pictures of the chart and the goal's pace get one.
 */
function pictureHistory(now: number): Array<{ at: number; points: number }> {
  const changes: Array<[number, number]> = [
    [35, 1250],
    [31, 1450],
    [27, 1690],
    [24, 1190],
    [20, 1600],
    [16, 1810],
    [12, 2010],
    [8, 2120],
    [4, 2330],
    [0.05, 2500],
  ];
  return changes.map(([daysAgo, points]) => ({ at: Math.round(now - daysAgo * DAY_MS), points }));
}
const SCHEMES = ['light', 'dark'] as const;
const GOAL = 'Atlas Travel £100 Gift Card';
/** A reward the sandbox's balance covers, with a figure inside its name: Confirm in Arabic shows it whole. */
const FIGURE_IN_NAME = 'Kaufhaus Lindner 15 € Geschenkkarte';

/** Takes `target` in both colour schemes as `${OUT}/${name}-{light,dark}.png`. */
async function inBothSchemes(page: Page, name: string, target: Page | Locator = page): Promise<void> {
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    const path = `${OUT}/${name}-${scheme}.png`;
    await target.screenshot({ path, animations: 'disabled' });
    console.log(`wrote ${path}`);
  }
}

/** The welcome a new install opens (entrypoints/background/welcome.ts), before anything is connected. */
async function welcome(ext: ExtensionSession): Promise<void> {
  const page = await welcomeTab(ext.context, `chrome-extension://${ext.extensionId}`);
  await page.setViewportSize({ width: 900, height: 800 });
  await page.getByRole('heading', { name: 'Welcome', level: 2 }).waitFor();
  await inBothSchemes(page, 'welcome');
  await page.close();
}

async function main(): Promise<void> {
  if (!existsSync(join(E2E_EXTENSION_DIR, 'manifest.json'))) {
    console.log(`No build in ${E2E_EXTENSION_DIR}: building it as the browser tests do.`);
    plainBuild('chrome');
  }
  await mkdir(OUT, { recursive: true });
  const sandbox = await startSandbox();
  const ext = await launchExtension({ sandbox, keepWelcome: true });
  try {
    await welcome(ext);
    await ext.connect();
    const worker = await ext.worker();
    await worker.evaluate(seedBalanceHistory, pictureHistory(Date.now()));

    const popup = await ext.openPage('popup.html');
    await popup.setViewportSize({ width: 380, height: 600 });
    await popup.locator('.hdr-balance').waitFor();
    await popup.locator('.reward').first().waitFor();
    // Wait for the popup's own refresh to settle, so no spinner is caught mid-turn.
    await popup.waitForFunction(() => !document.querySelector('main[aria-busy="true"]'));
    await popup.getByRole('button', { name: `Set as goal: ${GOAL}` }).click();
    await popup
      .getByRole('region', { name: 'Your goal' })
      .getByText(/at this pace/)
      .waitFor();
    // The click scrolled its row into view; the picture starts at the top, with the goal.
    await popup.evaluate(() => [document.documentElement, document.body].forEach((el) => el.scrollTo(0, 0)));

    const options = await ext.openPage('options.html');
    await options.setViewportSize({ width: 900, height: 1100 });
    await options.locator('.history-row').first().waitFor();
    // The account first, its balance read from the popup's view.
    await options.locator('.summary-points').waitFor();
    await options.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));

    await inBothSchemes(popup, 'popup');
    await inBothSchemes(options, 'options');
    await inBothSchemes(options, 'options-balance', options.getByRole('region', { name: 'Balance over time' }));

    // Answering one question at a time, as "Answer now" in the popup opens it: the
    // first open question, half answered.
    const answering = await ext.openPage('options.html#answer');
    await answering.setViewportSize({ width: 900, height: 1100 });
    await answering.locator('#answer-flow-heading').filter({ hasText: 'Question 1 of 2' }).waitFor();
    await answering.keyboard.type('10115');
    await inBothSchemes(answering, 'profile-answer', answering.getByRole('region', { name: 'Your profile' }));
  } finally {
    await ext.close();
    await sandbox.close();
  }
  await arabic();
  phone();
}

/** The phone run, its pictures written here (E2E_PICTURES_DIR, tests/e2e/config.ts). */
function phone(): void {
  const run = spawnSync('node_modules/.bin/vitest', ['run', '--project', 'e2e', 'tests/e2e/phone-chromium.test.ts'], {
    stdio: 'inherit',
    env: { ...process.env, E2E_PICTURES_DIR: OUT },
  });
  if (run.status !== 0) throw new Error(`The phone run failed: ${OUT}/phone-*.png were not written`);
  console.log(`wrote ${OUT}/phone-popup.png, ${OUT}/phone-options.png`);
}

/** The popup (at 320 px, where figures and words are tightest) and the options page in Arabic, right to left. */
async function arabic(): Promise<void> {
  const say = sayIn(catalogueOf('ar'));
  const sandbox = await startSandbox();
  const ext = await launchExtension({ sandbox, locale: 'ar' });
  try {
    const connecting = await ext.openPage('options.html');
    await connectBy(connecting, say, sandbox);
    await connecting.close();
    const worker = await ext.worker();
    await worker.evaluate(seedBalanceHistory, pictureHistory(Date.now()));
    const popup = await ext.openPage('popup.html');
    await popup.setViewportSize({ width: 320, height: 600 });
    await popup.locator('.reward').nth(3).waitFor();
    await popup.waitForFunction(() => !document.querySelector('main[aria-busy="true"]'));
    await popup.getByRole('button', { name: say('setGoal', GOAL), exact: true }).click();
    await popup.locator('.goal .goal-pace').waitFor();
    await popup.evaluate(() => [document.documentElement, document.body].forEach((el) => el.scrollTo(0, 0)));
    const options = await ext.openPage('options.html');
    await options.setViewportSize({ width: 900, height: 1100 });
    await options.locator('.history-row').first().waitFor();
    await options.locator('.summary-points').waitFor();
    await options.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    await inBothSchemes(popup, 'popup-ar');
    await inBothSchemes(options, 'options-ar');
    // Confirm names the reward as its row does, the figure inside the name whole; cancelled, not redeemed.
    await popup.getByRole('button', { name: say('redeemReward', FIGURE_IN_NAME), exact: true }).click();
    const dialog = popup.getByRole('alertdialog');
    await dialog.waitFor();
    await inBothSchemes(popup, 'popup-confirm-ar');
    await dialog.getByRole('button', { name: say('cancel'), exact: true }).click();
  } finally {
    await ext.close();
    await sandbox.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
