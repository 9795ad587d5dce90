/**
 * The popup in Chromium against the sandbox. Each test gets a fresh
 * browser profile and sandbox, connected through the options page as a panelist would.
 */
import type { Page } from 'playwright-core';
import { afterEach, expect, test } from 'vitest';
import type { LedgerEntry } from '../../utils/storage-items';
import { startSandbox } from '../sandbox/server';
import { axeViolations } from './axe';
import { control, injectFault, requestCount, serverState, stored } from './control';
import { E2E_SANDBOX_PORT } from './config';
import { launchExtension, type ExtensionSession, type LaunchOptions } from './harness';
import { popupSettled } from './popup-ready';

const REDEEM_PATH = '/v1/panel/redemption';
const COFFEE = 'Bluefin Coffee $5 Gift Card'; // 500 points; the seed balance is 2,500
/** The seed's two PayWave transfers, one brand of two values: one row. */
const PAYWAVE = 'PayWave Transfer';

const sessions: ExtensionSession[] = [];
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function start(options: LaunchOptions = {}): Promise<ExtensionSession> {
  const ext = await launchExtension({ ...options, connect: true });
  sessions.push(ext);
  return ext;
}

async function openPopup(ext: ExtensionSession): Promise<Page> {
  const page = await ext.openPage('popup.html');
  await page.setViewportSize({ width: 400, height: 600 });
  return page;
}

const redeemRequests = (ext: ExtensionSession) => requestCount(ext, REDEEM_PATH);

async function badgeText(ext: ExtensionSession): Promise<string> {
  return (await ext.worker()).evaluate(() => chrome.action.getBadgeText({}));
}

async function ledgerState(ext: ExtensionSession): Promise<string | undefined> {
  return (await stored<LedgerEntry | null>(ext, 'ledger'))?.state;
}

async function confirmRedeeming(popup: Page, name: string): Promise<void> {
  await popup.getByRole('button', { name: `Redeem ${name}` }).click();
  await popup.getByRole('button', { name: `Confirm redeeming ${name}` }).click();
}

test('shows the seeded balance and rewards by brand, affordable first', async () => {
  const ext = await start();
  const popup = await openPopup(ext);
  await expect.poll(() => popup.locator('.hdr-balance').textContent()).toBe('2,500 points');
  await expect.poll(() => popup.getByText(/^Updated /).textContent()).toMatch(/Updated (just now|.* ago)/);
  const seeded = (await serverState(ext)).rewards;
  // One row a brand: the two PayWave transfers share one, their values a choice on it.
  const paywave = seeded.filter((r) => r.name.startsWith('PayWave '));
  expect(paywave).toHaveLength(2);
  const single = seeded.filter((r) => !paywave.includes(r));
  // The rows come a frame after the header (those below the first few with Preact): awaited.
  await expect
    .poll(async () => (await popup.locator('.reward-name').allTextContents()).toSorted())
    .toEqual([...single.map((r) => r.name), PAYWAVE].toSorted());
  const names = await popup.locator('.reward-name').allTextContents();
  const values = popup.getByRole('combobox', { name: `Value of ${PAYWAVE}` });
  expect(await values.locator('option').allTextContents()).toEqual(['$10.00 · 1,000 points', '€50.00 · 5,400 points']);
  // Affordable ones come first (a brand by its cheapest value), then the rest.
  const costOf = (name: string) =>
    name === PAYWAVE
      ? Math.min(...paywave.map((r) => r.reward_point_cost!))
      : seeded.find((r) => r.name === name)!.reward_point_cost!;
  const affordable = names.filter((n) => costOf(n) <= 2500).length;
  expect(affordable).toBeGreaterThan(0);
  expect(names.slice(0, affordable).every((n) => costOf(n) <= 2500)).toBe(true);
  expect(names.slice(affordable).every((n) => costOf(n) > 2500)).toBe(true);
  await expect.poll(() => popup.getByText('You need 2,500 more points').count()).toBe(1); // PixelPlay $50
  expect(await popup.getByRole('searchbox', { name: 'Search rewards' }).isVisible()).toBe(true);
  // The badge is the worker's, set when its own read ends, not with the popup's paint.
  await expect.poll(() => badgeText(ext)).toBe('2.5k');
});

test('a redemption goes through: balance, history and badge change', async () => {
  const ext = await start();
  const popup = await openPopup(ext);
  await confirmRedeeming(popup, COFFEE);

  const outcome = popup.getByRole('region', { name: `Redeemed ${COFFEE}` });
  await outcome.waitFor();
  await expect.poll(() => outcome.textContent()).toContain('Your balance is now 2,000 points.');
  await expect.poll(() => popup.locator('.hdr-balance').textContent()).toBe('2,000 points');
  // One story: what it cost, the new balance, how it arrives; no second status inside.
  expect(await outcome.textContent()).toContain('You spent 500 points.');
  expect(await outcome.textContent()).toContain('Your $5.00 gift card arrives by e-mail.');
  expect(await outcome.getByRole('region').count()).toBe(0);

  const state = await serverState(ext);
  expect(state.balance).toBe(2000);
  expect(state.redemptions).toHaveLength(10);
  expect(state.redemptions.at(-1)?.reward.name).toBe(COFFEE);
  await expect.poll(() => badgeText(ext)).toBe('2k');

  // Done shows the history's latest entry instead.
  await outcome.getByRole('button', { name: `Done: ${COFFEE}`, exact: true }).click();
  await expect.poll(() => popup.getByRole('region', { name: 'Latest redemption' }).textContent()).toContain(COFFEE);
  // Focus is back on the reward's row, on its name, not on the page, nor on the Redeem just used:
  // one more Enter there would start the same redemption again.
  await expect.poll(() => popup.evaluate(() => document.activeElement?.textContent)).toBe(COFFEE);
  await popup.keyboard.press('Enter');
  // The Enter has landed once the name opened its details; no confirmation opened with them.
  await expect
    .poll(() => popup.getByRole('button', { name: COFFEE, exact: true }).getAttribute('aria-expanded'))
    .toBe('true');
  expect(await popup.getByRole('alertdialog').count()).toBe(0);
});

test('the goal toggle says what it does in words; once set, it and the goal’s card say it is the goal, with its name and figures; Remove goal keeps focus on the toggle', async () => {
  const ext = await start();
  const popup = await openPopup(ext);
  const GOAL = 'Greenleaf Markt 30 € Einkaufsgutschein';
  const row = popup.locator('li.reward').filter({ has: popup.getByRole('button', { name: GOAL, exact: true }) });
  // Found by its visible words, as a panelist on a touch screen (where no tooltip shows) reads it.
  const toggle = row.locator('.goal-toggle');
  expect(await toggle.textContent()).toBe('☆ Set as goal');
  expect(await toggle.getAttribute('aria-label')).toBe(`Set as goal: ${GOAL}`);
  await toggle.click();
  await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');
  // Set, it says so: not “Set as goal” pressed.
  expect(await toggle.textContent()).toBe('★ Your goal');
  expect(await toggle.getAttribute('aria-label')).toBe(`Your goal: ${GOAL}`);
  // The card names the goal and its figures where they can be read, not only in a bar's label.
  const card = popup.getByRole('region', { name: 'Your goal', exact: true });
  await card.waitFor();
  expect(await card.locator('.goal-name').innerText()).toBe(`${GOAL}\n2,500 of 3,300 points`);
  // The header says the points to go, and leaves the name to the card below it.
  await expect.poll(() => popup.locator('.hdr-next').first().textContent()).toBe('800 points to your goal');
  await toggle.click();
  await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('false');
  expect(await toggle.textContent()).toBe('☆ Set as goal');
  await card.waitFor({ state: 'detached' });
  // Removed from its card instead: focus goes on to the reward's toggle, not to the page, and it is said.
  await toggle.click();
  await card.waitFor();
  await card.getByRole('button', { name: `Remove goal: ${GOAL}`, exact: true }).click();
  await card.waitFor({ state: 'detached' });
  await expect
    .poll(() => popup.evaluate(() => document.activeElement?.getAttribute('aria-label')))
    .toBe(`Set as goal: ${GOAL}`);
  await popup.getByRole('status').filter({ hasText: 'Goal removed' }).waitFor();
});

test('clicking Confirm several times fast creates exactly one redemption', async () => {
  const ext = await start();
  // A slow answer keeps the window for a second request wide open.
  await injectFault(ext, { path: REDEEM_PATH, delayMs: 1500 });
  const popup = await openPopup(ext);
  await popup.getByRole('button', { name: `Redeem ${COFFEE}` }).click();
  const confirm = popup.getByRole('button', { name: `Confirm redeeming ${COFFEE}` });
  await confirm.waitFor();
  // Clicks in one task, before the popup can re-render and disable the button.
  await confirm.evaluate((button: HTMLButtonElement) => {
    button.click();
    button.click();
    button.click();
  });
  await popup.getByRole('region', { name: `Redeemed ${COFFEE}` }).waitFor();
  expect(await redeemRequests(ext)).toBe(1);
  const state = await serverState(ext);
  expect(state.redemptions).toHaveLength(10);
  expect(state.balance).toBe(2000);
});

test('a redemption confirmed in a popup that then closes still completes and shows on reopening', async () => {
  const ext = await start();
  await injectFault(ext, { path: REDEEM_PATH, delayMs: 3000 });
  const popup = await openPopup(ext);
  await confirmRedeeming(popup, COFFEE);
  await popup.getByRole('region', { name: `Redeeming ${COFFEE}…` }).waitFor();
  await popup.close();

  await expect.poll(async () => (await serverState(ext)).redemptions.length).toBe(10);
  await expect.poll(() => ledgerState(ext)).toBe('done');
  const reopened = await openPopup(ext);
  const outcome = reopened.getByRole('region', { name: `Redeemed ${COFFEE}` });
  await outcome.waitFor();
  await expect.poll(() => outcome.textContent()).toContain('Your balance is now 2,000 points.');
  expect(await redeemRequests(ext)).toBe(1);
});

test('an injected 500 charges nothing, is never resent, and the balance stays', async () => {
  const ext = await start();
  await injectFault(ext, { path: REDEEM_PATH, status: 500 });
  const popup = await openPopup(ext);
  await confirmRedeeming(popup, COFFEE);

  // A 500 is an ambiguous answer. What the popup says about it is pinned by "an
  // ambiguous redeem answer …" below and by the component tests; here, what the panel recorded.
  await expect.poll(() => ledgerState(ext)).not.toBe('pending');
  await popup.locator('#redeem-outcome').waitFor();
  const state = await serverState(ext);
  expect(state.balance).toBe(2500);
  expect(state.redemptions).toHaveLength(9);
  // A redeem is never retried blindly.
  expect(await redeemRequests(ext)).toBe(1);
  expect(await popup.locator('.hdr-balance').textContent()).toBe('2,500 points');
});

test('insufficient points on the server: the panelist’s numbers, the refreshed balance, nothing charged', async () => {
  const ext = await start();
  const popup = await openPopup(ext);
  await expect.poll(() => popup.locator('.hdr-balance').textContent()).toBe('2,500 points');
  // The popup still believes its cached 2,500; the server now holds less.
  await control(ext, '/state', 'PATCH', { balance: 100 });
  await confirmRedeeming(popup, COFFEE);

  const alert = popup.getByRole('alert').filter({ hasText: `Could not redeem ${COFFEE}` });
  await alert.waitFor();
  const text = await alert.textContent();
  // The refusal in the panelist's own, formatted numbers, and a header that
  // no longer contradicts it.
  expect(text).toContain('You have 100 points; this reward needs 500');
  expect(text).toMatch(/Nothing was charged/);
  await expect.poll(() => popup.locator('.hdr-balance').textContent()).toBe('100 points');
  const state = await serverState(ext);
  expect(state.balance).toBe(100);
  expect(state.redemptions).toHaveLength(9);

  // Close returns focus to the reward's row; its Redeem cannot be pressed with 100 points, so its name.
  await popup
    .locator('#redeem-outcome')
    .getByRole('button', { name: `Close: ${COFFEE}`, exact: true })
    .click();
  await popup.locator('#redeem-outcome').waitFor({ state: 'detached' });
  await expect
    .poll(() =>
      popup.evaluate(() => ({
        name: document.activeElement?.textContent,
        row: document.activeElement?.classList.contains('reward-open'),
      })),
    )
    .toEqual({ name: COFFEE, row: true });
});

test('a refusal with the panel’s own reason quotes it in the card; the code stays for support', async () => {
  const ext = await start();
  await injectFault(ext, {
    path: REDEEM_PATH,
    status: 422,
    body: JSON.stringify({ message: 'This reward is temporarily unavailable.' }),
  });
  const popup = await openPopup(ext);
  await confirmRedeeming(popup, COFFEE);
  const alert = popup.getByRole('alert').filter({ hasText: `Could not redeem ${COFFEE}` });
  await alert.waitFor();
  expect(await alert.textContent()).toContain(
    'Panel Rewards said: “This reward is temporarily unavailable.” Try another reward, or contact Panel Rewards.',
  );
  const support = popup.locator('#redeem-outcome .support');
  await support.getByText('Details for support').click();
  expect(await support.locator('.support-text').textContent()).toBe('HTTP 422 /v1/panel/redemption');
});

test('by keyboard, “Show more” takes focus on to the first reward it added, and the last page does not drop it', async () => {
  const ext = await launchExtension();
  sessions.push(ext);
  // 35 brands: a first page of 30, then 5 more.
  const { rewards } = await serverState(ext);
  const seed = rewards[0]!;
  const many = Array.from({ length: 35 }, (_, i) => ({
    ...seed,
    id: 5000 + i,
    name: `Brand ${i + 1} Gift Card`,
    reward_point_cost: 100 + i,
    meta_data: { ...seed.meta_data, brand_name: `Brand ${i + 1}` },
  }));
  await control(ext, '/state', 'PATCH', { rewards: many });
  await ext.connect();
  const popup = await openPopup(ext);
  const more = popup.getByRole('button', { name: /^Show \d+ more rewards$/ });
  // The popup's view holds the first ten; the rest come with the catalogue.
  await popup.locator('li.reward').nth(9).waitFor();
  await popupSettled(popup);
  // Page by page to the last, each time by Enter, as a keyboard does.
  for (let shown = await popup.locator('li.reward').count(); shown < many.length;) {
    await more.focus();
    await popup.keyboard.press('Enter');
    await popup.locator('li.reward').nth(shown).waitFor();
    await expect
      .poll(() => popup.evaluate(() => document.activeElement?.textContent))
      .toBe(`Brand ${shown + 1} Gift Card`);
    shown = await popup.locator('li.reward').count();
  }
  expect(await more.count()).toBe(0);
});

test('shows cached data at once with the sandbox stopped, and the error on refresh', async () => {
  const sandbox = await startSandbox({ port: E2E_SANDBOX_PORT });
  let stopped = false;
  cleanups.push(async () => {
    if (!stopped) await sandbox.close();
  });
  const ext = await start({ sandbox });
  const first = await openPopup(ext);
  await expect.poll(() => first.locator('.hdr-balance').textContent()).toBe('2,500 points');
  await first.close();
  await sandbox.close();
  stopped = true;

  const popup = await openPopup(ext);
  await popup.getByText(COFFEE, { exact: true }).waitFor();
  expect(await popup.locator('.hdr-balance').textContent()).toBe('2,500 points');
  await popup.getByRole('button', { name: 'Refresh: your points and rewards', exact: true }).click();
  // One amber line in the header, not a card above the rewards.
  // In plain words, with the points it still shows; the cause for support on its own line.
  const alert = popup
    .locator('header')
    .getByRole('alert')
    .filter({
      hasText: /^Can’t reach Panel Rewards right now — last updated .+/,
    });
  await alert.waitFor({ timeout: 30_000 });
  expect(await popup.getByRole('button', { name: 'Retry: your points and rewards', exact: true }).isVisible()).toBe(
    true,
  );
  expect(await popup.getByText(COFFEE, { exact: true }).isVisible()).toBe(true);
  expect(await popup.locator('.notice').count()).toBe(0);
});

test('details show sanitized HTML: no script, handlers or javascript: links; links open in a new tab', async () => {
  const sandbox = await startSandbox({ port: E2E_SANDBOX_PORT });
  cleanups.push(() => sandbox.close());
  const [coffee, ...others] = sandbox.state.rewards;
  sandbox.state.rewards = [
    {
      ...coffee!,
      meta_data: {
        ...coffee!.meta_data,
        description:
          '<p>Good <b>coffee</b>.<script>window.__pwned = 1</script></p><img src="x" onerror="window.__pwned = 2">' +
          '<a href="javascript:window.__pwned = 3">bad</a> <a href="https://brand.example/terms" target="_self">terms</a>' +
          '<form action="https://evil.example"><input name="card"></form><style>body{display:none}</style>',
      },
    },
    ...others,
  ];
  const ext = await start({ sandbox });
  const popup = await openPopup(ext);
  await popup.getByRole('button', { name: COFFEE, exact: true }).click();
  await popup.getByRole('heading', { name: 'Description' }).waitFor();

  // The field sits in a shadow root of its own, after that root's own styles.
  const html = await popup
    .locator('.details .html')
    .first()
    .evaluate((box) => box.shadowRoot?.lastElementChild?.innerHTML ?? '');
  expect(html).toContain('<b>coffee</b>');
  expect(html).not.toMatch(/<script|onerror|javascript:|<form|<input|<style/i);
  const link = popup.getByRole('link', { name: 'terms', exact: true });
  expect(await link.getAttribute('target')).toBe('_blank');
  expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
  expect(await popup.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await popup.evaluate(() => getComputedStyle(document.body).display)).not.toBe('none');
});

test('keyboard alone: Redeem opens the confirmation, Escape cancels, focus comes back; axe finds nothing', async () => {
  const ext = await start();
  const popup = await openPopup(ext);
  const redeem = popup.getByRole('button', { name: `Redeem ${COFFEE}` });
  await redeem.focus();
  await popup.keyboard.press('Enter');
  const dialog = popup.getByRole('alertdialog', { name: 'Confirm redemption' });
  await dialog.waitFor();
  expect(await dialog.getByRole('button', { name: 'Cancel' }).evaluate((el) => el === document.activeElement)).toBe(
    true,
  );
  expect(await axeViolations(popup)).toEqual([]);
  await popup.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  // Focus goes back in a task after the dialog has gone.
  await expect.poll(() => redeem.evaluate((el) => el === document.activeElement)).toBe(true);
  expect(await redeemRequests(ext)).toBe(0);

  // The row's name opens its details.
  const name = popup.getByRole('button', { name: COFFEE, exact: true });
  expect(await name.getAttribute('aria-expanded')).toBe('false');
  await name.click();
  await popup.getByRole('heading', { name: 'Description' }).waitFor();
  expect(await name.getAttribute('aria-expanded')).toBe('true');
  expect(await axeViolations(popup)).toEqual([]);
  await popup.emulateMedia({ colorScheme: 'dark' });
  expect(await axeViolations(popup)).toEqual([]);
});

/** The popup's layout, and redemptions whose answer is lost, refused or still being checked. */

const HISTORY_PATH = '/v1/panel/redemptions';

/** The element's box in the page: what the panelist sees move or not. */
const boxOf = (popup: Page, selector: string) =>
  popup
    .locator(selector)
    .first()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      return {
        left: r.left,
        right: r.right,
        top: r.top,
        bottom: r.bottom,
        width: document.documentElement.clientWidth,
      };
    });

test('first run: the header fits the popup (title inside the left edge, Settings not cut off)', async () => {
  const ext = await launchExtension();
  sessions.push(ext);
  const popup = await openPopup(ext);
  await popup.getByRole('button', { name: 'Connect', exact: true }).waitFor();
  const title = await boxOf(popup, 'h1');
  const settingsButton = await boxOf(popup, 'header button');
  expect(title.left).toBeGreaterThanOrEqual(8);
  expect(settingsButton.right).toBeLessThanOrEqual(settingsButton.width - 8);
  expect(await popup.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(
    true,
  );
  expect(await popup.getByRole('link', { name: 'History', exact: true }).count()).toBe(0);
  await popup.screenshot({ path: '/tmp/popup-shots/after-first-run.png' });
});

test('nothing moves once shown: rows keep their place while the history arrives late and during a pending redeem', async () => {
  const ext = await start();
  // The history comes after the rewards, as on a slow panel; it is read afresh on opening.
  await (await ext.worker()).evaluate(() => chrome.storage.local.remove('cache:history'));
  await injectFault(ext, { path: HISTORY_PATH, delayMs: 1500 });
  const popup = await openPopup(ext);
  const frames = await popup.evaluate(sampleUntil, 'latest');
  expect(frames.length).toBeGreaterThan(10);
  expectNoMovement(frames);
  await popup.screenshot({ path: '/tmp/popup-shots/after-popup-data.png' });

  // A pending redemption: one banner above the list, no row grows or shrinks. The panel holds its
  // answer until the page has drawn enough frames of the wait, however slowly it draws them.
  await injectFault(ext, { path: REDEEM_PATH, held: true });
  await popup.getByRole('button', { name: `Redeem ${COFFEE}` }).click();
  const sampling = popup.evaluate(sampleUntil, 'done');
  await popup.getByRole('button', { name: `Confirm redeeming ${COFFEE}` }).click();
  await popup.getByRole('region', { name: `Redeeming ${COFFEE}…` }).waitFor();
  await popup.waitForFunction(
    (text) => (window as unknown as { __sampled: Frame[] }).__sampled.filter((f) => f.state?.text === text).length > 10,
    WAITING,
  );
  await control(ext, '/release', 'POST');
  const pending = await sampling;
  const heights = new Map<string, Set<number>>();
  // While it is pending and the balance has not changed yet: the rows must not change for the wait alone.
  const waiting = pending.filter((frame) => frame.state?.text === WAITING);
  expect(waiting.length).toBeGreaterThan(10);
  for (const frame of waiting)
    for (const [name, box] of Object.entries(frame)) {
      if (!heights.has(name)) heights.set(name, new Set());
      heights.get(name)!.add(Math.round(box.height));
    }
  for (const [name, seen] of heights)
    if (!['outcome', 'header', 'state'].includes(name)) expect([...seen], name).toHaveLength(1);
  expect(await popup.getByText('Other rewards can be redeemed once this one has finished.').count()).toBe(0);
});

type Frame = Record<string, { top: number; height: number; text?: string }>;
/** A frame's outcome and balance while the redemption is pending and the balance not yet changed. */
const WAITING = 'Redeeming|2,500 points';

/**
 * Runs in the popup: records, every animation frame, where the header, the outcome card and each
 * reward row are, until `until` happened (the latest redemption shown, or the outcome settled),
 * and ten frames more.
 */
function sampleUntil(until: string): Promise<Frame[]> {
  return new Promise((resolve) => {
    const frames: Frame[] = [];
    // Readable while it samples, for a test waiting on what has been seen.
    Object.assign(window, { __sampled: frames });
    let after = -1;
    const tick = () => {
      const frame: Frame = {};
      const put = (name: string, el: Element | null) => {
        if (!el) return;
        const r = el.getBoundingClientRect();
        frame[name] = { top: r.top + window.scrollY, height: r.height };
      };
      put('header', document.querySelector('header'));
      // What the panelist reads at that frame: the outcome's state and the balance.
      frame.state = {
        top: 0,
        height: 0,
        text: `${document.getElementById('redeem-outcome')?.textContent?.slice(0, 9)}|${document.querySelector('.hdr-balance')?.textContent}`,
      };
      put('outcome', document.getElementById('redeem-outcome'));
      document
        .querySelectorAll('.reward')
        .forEach((row) => put(row.querySelector('.reward-name')?.textContent ?? '?', row));
      frames.push(frame);
      const reached =
        until === 'latest'
          ? document.querySelector('section[aria-label="Latest redemption"]') !== null
          : (document.getElementById('redeem-outcome')?.textContent ?? '').startsWith('Redeemed ');
      if (reached && after < 0) after = 10;
      if (after === 0) return resolve(frames);
      if (after > 0) after -= 1;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

/** Once an element is shown, its top stays where it was. */
function expectNoMovement(frames: Frame[]): void {
  const first = new Map<string, number>();
  for (const [i, frame] of frames.entries()) {
    for (const [name, box] of Object.entries(frame)) {
      if (name === 'state') continue;
      if (!first.has(name)) first.set(name, box.top);
      expect(Math.abs(box.top - first.get(name)!), `${name} moved at frame ${i}`).toBeLessThan(1);
    }
  }
  expect(first.size).toBeGreaterThan(5);
}

test('"History" in the header opens the options page at its history', async () => {
  const ext = await start();
  const popup = await openPopup(ext);
  const opened = ext.context.waitForEvent('page');
  await popup.getByRole('link', { name: 'History', exact: true }).click();
  const page = await opened;
  await page.waitForLoadState();
  expect(page.url()).toBe(`chrome-extension://${ext.extensionId}/options.html#history`);
});

test('Shift+Tab never leaves the focused control under the sticky header', async () => {
  const ext = await start();
  const popup = await openPopup(ext);
  await popup.getByRole('button', { name: `Redeem ${COFFEE}` }).waitFor();
  // To the end of the list, then back up one control at a time.
  await popup
    .locator('.reward')
    .last()
    .getByRole('button', { name: /^Set as goal: / })
    .focus();
  for (let i = 0; i < 24; i += 1) {
    await popup.keyboard.press('Shift+Tab');
    const where = await popup.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const header = document.querySelector('header')!;
      return {
        inHeader: header.contains(el),
        top: el.getBoundingClientRect().top,
        headerBottom: header.getBoundingClientRect().bottom,
      };
    });
    if (where.inHeader) break;
    expect(where.top, `control ${i}`).toBeGreaterThanOrEqual(where.headerBottom);
  }
});

test('an ambiguous redeem answer is "being checked", never "nothing was charged"; its Redeem is held back, and Check now answers', async () => {
  const ext = await start();
  // The panel fails the redeem with a 500 and its history cannot be read either: nobody knows.
  // The history is read once before the redeem leaves (its baseline); it fails from then on.
  await injectFault(ext, { path: REDEEM_PATH, status: 500, delayMs: 3_000 });
  const popup = await openPopup(ext);
  await confirmRedeeming(popup, COFFEE);
  await expect.poll(() => redeemRequests(ext)).toBe(1);
  await injectFault(ext, { path: HISTORY_PATH, status: 500, times: 6 });
  const outcome = popup.getByRole('region', { name: `Checking whether ${COFFEE} went through` });
  await outcome.waitFor();
  // The answer names the card at once; the read after it (failing here) leaves it to the checks.
  const check = outcome.getByRole('button', { name: `Check now whether ${COFFEE} went through` });
  await check.waitFor();
  const text = await outcome.textContent();
  expect(text).not.toMatch(/Nothing was charged|did not go through/);
  expect(await outcome.getByRole('button', { name: /^(Close|Done):/ }).count()).toBe(0);
  expect(await redeemRequests(ext)).toBe(1);

  // Its Redeem is held back while it is checked, and says why; the other rewards stay open.
  const again = popup.getByRole('button', { name: `Redeem ${COFFEE}` });
  expect(await again.isDisabled()).toBe(true);
  const why = await again.getAttribute('aria-describedby');
  expect(await popup.locator(`#${why}`).textContent()).toBe(
    'Held back: your last redemption of it is still being checked',
  );
  expect(await popup.getByRole('button', { name: 'Redeem Northwind Books $10 Gift Card' }).isDisabled()).toBe(false);
  expect(await axeViolations(popup)).toEqual([]);

  await control(ext, '/faults', 'DELETE');
  const before = await requestCount(ext, HISTORY_PATH);
  await check.click();
  await expect.poll(() => requestCount(ext, HISTORY_PATH)).toBeGreaterThan(before);
  // A check that does not find it says so where the panelist looks, and focus stays on the button.
  await outcome.locator('.check-when', { hasText: /^Checked just now — not in your history yet\./ }).waitFor();
  expect(await check.evaluate((el) => el === document.activeElement)).toBe(true);
  expect(await outcome.textContent()).not.toMatch(/Nothing was charged|did not go through/);
  expect(await axeViolations(popup)).toEqual([]);
  expect((await serverState(ext)).redemptions).toHaveLength(9);
});
