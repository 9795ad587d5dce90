import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { axeViolations } from './axe';
import { control } from './control';
import { E2E_EXTENSION_DIR } from './config';
import { launchExtension, type ExtensionSession } from './harness';

/**
 * Notifications in Chromium against the sandbox: a redemption the sandbox moves from pending to complete
 * gives exactly one notification, also after the worker restarts; the options page draws the
 * balance over time with its summary in words.
 *
 * Chromium's prompt for an optional permission is browser UI that nothing can answer headless. As
 * the browser-test build holds the sandbox's origin from install, this copy of it holds
 * `notifications` from install; the preferences' "Notify me" then asks for it as it would for a
 * panelist (`permissions.request` answers at once for a permission already granted).
 */

let ext: ExtensionSession;
let buildDir: string;
/** An extension page to read and call extension APIs from: unlike the worker, it stays across worker restarts. */
let probe: Page;

async function granting(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'panel-e2e-notify-'));
  await cp(E2E_EXTENSION_DIR, dir, { recursive: true });
  const manifestPath = join(dir, 'manifest.json');
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8'));
  expect(manifest.optional_permissions).toEqual(['notifications']);
  manifest.permissions = [...manifest.permissions, 'notifications'];
  manifest.optional_permissions = [];
  await writeFile(manifestPath, JSON.stringify(manifest));
  return dir;
}

async function shown(): Promise<string[]> {
  return probe.evaluate(async () => Object.keys(await chrome.notifications.getAll()));
}

/** The background's own refresh, as its alarm runs it (an alarm also wakes a stopped worker). */
async function refreshAlarm(): Promise<void> {
  await probe.evaluate(() => chrome.alarms.create('refresh', { when: Date.now() }));
}

async function stored<T>(key: string): Promise<T> {
  return probe.evaluate(async (k) => (await chrome.storage.local.get(k))[k], key) as Promise<T>;
}

/** The space from the bottom of `above` to the top of `below` on `page`, in CSS pixels. */
async function gap(page: Page, above: string, below: string): Promise<number> {
  return page.evaluate(
    ([a, b]) =>
      document.querySelector(b!)!.getBoundingClientRect().top -
      document.querySelector(a!)!.getBoundingClientRect().bottom,
    [above, below],
  );
}

const told = async () => (await stored<{ told: string[] }>('notify:state')).told;
const historyFetchedAt = async () => (await stored<{ fetchedAt: number }>('cache:history')).fetchedAt;

async function patchRedemption(id: number, patch: Record<string, unknown>): Promise<void> {
  const state = await control<{ redemptions: Array<Record<string, unknown>> }>(ext, '/state');
  const redemptions = state.redemptions.map((r) => (r.id === id ? { ...r, ...patch } : r));
  await control(ext, '/state', 'PATCH', { redemptions });
}

beforeAll(async () => {
  buildDir = await granting();
  ext = await launchExtension({ extensionDir: buildDir, connect: true });
  probe = await ext.openPage('options.html');
});

afterAll(async () => {
  await ext?.close();
  if (buildDir) await rm(buildDir, { recursive: true, force: true });
});

describe('notifications', () => {
  test('turned on in the preferences, a redemption moved from pending to complete is told exactly once', async () => {
    const options = await ext.openPage('options.html');
    const notify = options.getByLabel('Notify me of changes');
    expect(await notify.isChecked()).toBe(false);
    // The help line stays with its check box, and the next field keeps its distance from it.
    const hint = '#pref-notify-hint';
    expect(await gap(options, '.field.check:has(#pref-notify)', hint)).toBeLessThanOrEqual(4);
    expect(await gap(options, hint, 'label[for="pref-refresh"]')).toBeGreaterThanOrEqual(10);
    await notify.click();
    await options.getByRole('status').filter({ hasText: 'Your choice was saved.' }).waitFor();
    expect(await notify.isChecked()).toBe(true);
    await options.getByRole('group', { name: 'Notify me when' }).waitFor();
    expect(await gap(options, hint, '#preferences fieldset legend')).toBeGreaterThanOrEqual(10);
    expect(await gap(options, '#preferences fieldset', 'label[for="pref-refresh"]')).toBeGreaterThanOrEqual(10);
    await options.close();

    // PayWave $10 Transfer (5009) is pending in the seed.
    // Its notification is named by its whole key: id, reward and created_at (as the history stores it).
    const PAYWAVE_COMPLETE = 'redemption:5009 109 2025-02-11T19:03:37Z:complete';
    await patchRedemption(5009, { approved: true, processed: true });
    await refreshAlarm();
    await expect.poll(shown).toEqual([PAYWAVE_COMPLETE]);

    await refreshAlarm();
    await expect.poll(told).toEqual([PAYWAVE_COMPLETE]);
    await ext.stopWorker();
    // The refresh after the restart has run when the history's fetch time moved on.
    const before = await historyFetchedAt();
    await refreshAlarm();
    await expect.poll(historyFetchedAt).toBeGreaterThan(before);
    expect(await shown()).toEqual([PAYWAVE_COMPLETE]);
    expect(await told()).toEqual([PAYWAVE_COMPLETE]);
  });
});

describe('new profile questions', () => {
  test('off until chosen; chosen, a question the panel adds is told exactly once', async () => {
    const options = await ext.openPage('options.html');
    const kind = options.getByLabel('your panel adds a profile question');
    expect(await kind.isChecked()).toBe(false);
    await kind.check();
    await options.getByRole('status').filter({ hasText: 'Your choice was saved.' }).waitFor();

    const { variables } = await control<{ variables: unknown[] }>(ext, '/state');
    const pets = {
      id: 195,
      name: 'PETS',
      text: 'Do you have pets at home?',
      uuid: 'pets',
      type: 'radio',
      writable: true,
      options: [{ id: 196, name: 'YES', text: 'Yes', exclusive: false }],
    };
    await control(ext, '/state', 'PATCH', { variables: [...variables, pets] });
    const questions = async () => (await shown()).filter((id) => id.startsWith('question:'));
    await options.getByRole('button', { name: 'Reload profile' }).click();
    await options.getByRole('status').filter({ hasText: 'Profile updated.' }).waitFor();
    await expect.poll(questions).toEqual(['question:PETS']);
    // Read again: nothing new to tell.
    const fetchedAt = async () => (await stored<{ fetchedAt: number }>('cache:profile')).fetchedAt;
    const before = await fetchedAt();
    await options.getByRole('button', { name: 'Reload profile' }).click();
    await expect.poll(fetchedAt).toBeGreaterThan(before);
    await options.getByRole('button', { name: 'Reload profile' }).waitFor();
    expect(await told()).toContain('question:PETS');
    expect(await questions()).toEqual(['question:PETS']);
    await options.close();
  });
});

// A balance enters the history once a second read agrees: each step is one more read of the
// rewards, told by the cache's fetch time moving on.
const history = async () =>
  ((await stored<Array<{ points: number; tentative?: true }> | undefined>('balance:history')) ?? []).map(
    (s) => `${s.points}${s.tentative ? '?' : ''}`,
  );
const rewardsFetchedAt = async () => (await stored<{ fetchedAt: number } | undefined>('cache:rewards'))?.fetchedAt ?? 0;
async function readAgain(): Promise<void> {
  const before = await rewardsFetchedAt();
  await refreshAlarm();
  await expect.poll(rewardsFetchedAt).toBeGreaterThan(before);
}

/**
 * The history the chart's test leaves, 2,500 then 3,750 points, read again from wherever that test
 * stopped: the tests after it then stand on their own, and a failure of the chart is reported once.
 */
async function twoBalancesRead(): Promise<void> {
  if ((await history()).join() === '2500,3750') return;
  for (const balance of [2500, 3750]) {
    if ((await history()).includes(String(balance))) continue;
    await control(ext, '/state', 'PATCH', { balance });
    await readAgain();
    await readAgain();
  }
  await expect.poll(history).toEqual(['2500', '3750']);
}

/**
 * The first sample made three days old, as an install of some days has it: the chart draws once it
 * has more than a day to show (a line says the balance before that). The samples' points stay.
 */
async function aged(): Promise<void> {
  await probe.evaluate(
    async (at) => {
      const { 'balance:history': samples } = await chrome.storage.local.get('balance:history');
      const [first, ...rest] = samples as Array<{ at: number }>;
      await chrome.storage.local.set({ 'balance:history': [{ ...first, at }, ...rest] });
    },
    Date.now() - 3 * 86_400_000,
  );
}

describe('balance over time', () => {
  test('the options page draws the balance with its change in words', async () => {
    await readAgain();
    await expect.poll(history).toEqual(['2500']);
    await control(ext, '/state', 'PATCH', { balance: 3750 });
    await readAgain();
    await expect.poll(history).toEqual(['2500', '3750?']);
    await readAgain();
    await expect.poll(history).toEqual(['2500', '3750']);
    await aged();
    const page = await ext.openPage('options.html');
    await page.setViewportSize({ width: 900, height: 1400 });
    const section = page.getByRole('region', { name: 'Balance over time' });
    // One earning figure, in the popup's words.
    await section.getByText(/^1,250 points earned since /).waitFor();
    expect(await section.locator('svg.balance-chart path').count()).toBeGreaterThanOrEqual(1);
    await section.getByLabel('365 days').check();
    await section.getByText(/^1,250 points earned since /).waitFor();
    await page.close();
  });

  test('axe finds nothing on the options page with the chart, light and dark', async () => {
    // A page and a history of its own: the test before may have stopped anywhere.
    await twoBalancesRead();
    await aged();
    const page = await ext.openPage('options.html');
    await page.setViewportSize({ width: 900, height: 1400 });
    await page.getByRole('region', { name: 'Balance over time' }).locator('svg.balance-chart path').first().waitFor();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await axeViolations(page), scheme).toEqual([]);
    }
    await page.close();
  });
});

describe('the goal, end to end', () => {
  const PIXEL = 'PixelPlay Games $50 Gift Card'; // 5,000 points
  const badge = () => probe.evaluate(() => chrome.action.getBadgeText({}));

  test('set from the popup, counted down on the badge, told once when affordable, redeemable from the header', async () => {
    await twoBalancesRead();
    const options = await ext.openPage('options.html');
    await options.getByLabel('The badge shows').selectOption({ label: 'the points still needed for your goal' });
    await options.getByRole('status').filter({ hasText: 'Your choice was saved.' }).waitFor();
    await options.close();

    const popup = await ext.openPage('popup.html');
    await popup.getByRole('button', { name: `Set as goal: ${PIXEL}` }).click();
    const goal = popup.getByRole('region', { name: 'Your goal', exact: true });
    await goal.waitFor();
    // The goal is the header's next step: the points to go, said once; the card names it.
    await expect.poll(() => popup.locator('.hdr-next').first().textContent()).toBe('1,250 points to your goal');
    expect(await goal.textContent()).not.toMatch(/to go/);
    await expect.poll(badge).toBe('1.2k');
    // The earning figure sits in the goal's card, spending not subtracted.
    await expect.poll(() => goal.locator('.goal-pace').textContent()).toMatch(/^1,250 points earned since /);
    for (const scheme of ['light', 'dark'] as const) {
      await popup.emulateMedia({ colorScheme: scheme });
      expect(await axeViolations(popup), scheme).toEqual([]);
    }
    await popup.emulateMedia({ colorScheme: 'light' });

    await control(ext, '/state', 'PATCH', { balance: 5200 });
    await refreshAlarm();
    await goal.getByText('You can redeem it now').waitFor();
    await expect.poll(badge).toBe('✓');
    const goalNotes = async () => (await shown()).filter((id) => id.startsWith('goal:'));
    await expect.poll(goalNotes).toHaveLength(1);
    // One more refresh, run to its end, tells nothing new.
    const before = await historyFetchedAt();
    await refreshAlarm();
    await expect.poll(historyFetchedAt).toBeGreaterThan(before);
    expect(await goalNotes()).toHaveLength(1);

    await goal.getByRole('button', { name: `Redeem ${PIXEL}` }).click();
    await popup.getByRole('alertdialog', { name: 'Confirm redemption' }).waitFor();
    await popup.keyboard.press('Escape');
    await goal.getByRole('button', { name: `Remove goal: ${PIXEL}` }).click();
    await goal.waitFor({ state: 'detached' });
    await expect.poll(badge).toBe('');
    await popup.close();
  });
});
