/**
 * Accessibility in Chromium: axe-core finds no violations on the popup and the options page
 * in each state, in the light and the dark colour scheme; focus is visible and goes where the
 * panelist's attention must go (after Confirm, to the outcome; after an error, to the error).
 * Then the same pages with the browser in German.
 *
 * axe-core is added to the page as a script tag. Extension pages forbid inline scripts (CSP
 * `script-src 'self'`), so each audited page is opened with CSP bypassed over the DevTools protocol;
 * nothing else about the page changes.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { runAxe } from './axe';
import { injectFault, setLedger } from './control';
import { launchExtension, type ExtensionSession } from './harness';

const SCHEMES = ['light', 'dark'] as const;
const COFFEE = 'Bluefin Coffee $5 Gift Card'; // 500 points; the seed balance is 2,500
const FIRST_NAME = 'What is your first name?';

/** Every audit, for the summary printed at the end: page, state, scheme, violations. */
const audits: Array<{ page: string; state: string; scheme: string; violations: string[]; unsure: number }> = [];

afterAll(() => {
  const rows = audits.map(
    (a) =>
      `${a.page.padEnd(8)} ${a.state.padEnd(44)} ${a.scheme.padEnd(6)} ${a.violations.length ? a.violations.join('; ') : 'no violations'}` +
      (a.unsure ? ` (contrast undecided for ${a.unsure} element(s))` : ''),
  );
  console.log(`axe-core results\n${rows.join('\n')}`);
});

/** An extension page at the size it is used at. */
async function openAudited(
  context: BrowserContext,
  extensionId: string,
  path: 'popup.html' | 'options.html',
): Promise<Page> {
  const page = await context.newPage();
  if (path === 'popup.html') await page.setViewportSize({ width: 400, height: 600 });
  else await page.setViewportSize({ width: 900, height: 1200 });
  await page.goto(`chrome-extension://${extensionId}/${path}`);
  return page;
}

/** axe in both colour schemes; every violation is reported before the test fails. */
async function audit(page: Page, where: string, state: string): Promise<void> {
  const backgrounds = new Set<string>();
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    backgrounds.add(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor));
    const { violations, unsure } = await runAxe(page);
    audits.push({ page: where, state, scheme, violations, unsure });
    expect.soft(violations, `${where}, ${state}, ${scheme}`).toEqual([]);
  }
  // The page did follow the scheme: light and dark backgrounds differ.
  expect(backgrounds.size).toBe(2);
  await page.emulateMedia({ colorScheme: 'light' });
}

const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      id: el?.id ?? '',
      tag: el?.tagName ?? '',
      text: el?.textContent?.trim() ?? '',
      role: el?.getAttribute('role') ?? '',
    };
  });

/** The focused element draws a visible outline that stands out against the page, in both schemes. */
async function expectVisibleFocus(page: Page): Promise<void> {
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    const ring = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const style = getComputedStyle(el);
      return {
        matches: el.matches(':focus-visible'),
        style: style.outlineStyle,
        width: parseFloat(style.outlineWidth),
        color: style.outlineColor,
      };
    });
    expect(ring.matches, scheme).toBe(true);
    expect(ring.style, scheme).not.toBe('none');
    expect(ring.width, scheme).toBeGreaterThanOrEqual(2);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('axe-core, light and dark, every state', () => {
  let ext: ExtensionSession;
  let sandbox: Sandbox;
  const open = (path: 'popup.html' | 'options.html') => openAudited(ext.context, ext.extensionId, path);

  beforeAll(async () => {
    // A sandbox on a free port of its own, so another test run on this machine cannot collide with it.
    sandbox = await startSandbox();
    ext = await launchExtension({ sandbox });
  });
  afterAll(async () => {
    await ext?.close();
    await sandbox?.close();
  });

  test('popup, not connected; keyboard focus is visible', async () => {
    const popup = await open('popup.html');
    await popup.getByRole('button', { name: 'Connect', exact: true }).waitFor();
    await audit(popup, 'popup', 'not connected');
    await popup.keyboard.press('Tab');
    expect((await focused(popup)).tag).toBe('BUTTON');
    await expectVisibleFocus(popup);
    await popup.close();
  });

  test('options, not connected, with validation errors shown; focus goes to the first problem', async () => {
    const options = await open('options.html');
    await options.getByLabel('Personal key').waitFor();
    // The build's panel address is behind "Advanced"; this sandbox runs on a port of its own.
    await options.getByText('Advanced', { exact: true }).click();
    const url = options.getByLabel('Panel address');
    await url.fill('');
    await options.getByRole('button', { name: 'Connect', exact: true }).click();
    await options.locator('#api-base-url-error').waitFor();
    expect(await options.locator('#api-base-url-error').textContent()).toContain('Enter your panel’s address');
    expect(await options.locator('#access-token-error').textContent()).toContain('Paste your personal key');
    expect((await focused(options)).id).toBe('access-token');
    await audit(options, 'options', 'not connected, validation errors');
    await expectVisibleFocus(options);

    // A key the panel refuses: the error takes focus.
    await url.fill(ext.sandbox.url);
    await options.getByLabel('Personal key').fill('not-the-token');
    await options.getByRole('button', { name: 'Connect', exact: true }).click();
    const refused = options.getByRole('alert').filter({ hasText: 'did not accept this key' });
    await refused.waitFor();
    await expect.poll(() => refused.evaluate((el) => el === document.activeElement)).toBe(true);
    await audit(options, 'options', 'not connected, connect refused');
    await options.close();
  });

  test('popup: loaded, details open, confirmation open; after Confirm focus is on the outcome', async () => {
    await ext.connect();
    const popup = await open('popup.html');
    await expect.poll(() => popup.locator('.hdr-balance').textContent()).toBe('2,500 points');
    await audit(popup, 'popup', 'loaded');

    // Sort and type shown; a goal set, its card and its row's toggle pressed.
    const filters = popup.getByRole('button', { name: 'Sort and filter' });
    await filters.click();
    await popup.getByRole('combobox', { name: 'Sort' }).waitFor();
    await popup.getByRole('button', { name: `Set as goal: ${COFFEE}` }).click();
    await popup.getByRole('region', { name: 'Your goal', exact: true }).waitFor();
    await audit(popup, 'popup', 'sort and filter shown, a goal set');
    await popup
      .getByRole('region', { name: 'Your goal', exact: true })
      .getByRole('button', { name: /^Remove goal/ })
      .click();
    await filters.click();

    await popup.getByRole('button', { name: COFFEE, exact: true }).click();
    await popup.getByRole('heading', { name: 'Description' }).waitFor();
    await audit(popup, 'popup', 'details open');

    // One Redeem a row, after its details.
    const redeem = popup.getByRole('button', { name: `Redeem ${COFFEE}` });
    await redeem.focus();
    await popup.keyboard.press('Enter');
    const dialog = popup.getByRole('alertdialog', { name: 'Confirm redemption' });
    await dialog.waitFor();
    expect(await focused(popup)).toMatchObject({ tag: 'BUTTON', text: 'Cancel' });
    await expectVisibleFocus(popup);
    await audit(popup, 'popup', 'confirmation dialog open');

    await popup.keyboard.press('Tab'); // to Confirm: Cancel has focus first, so a stray Enter never redeems
    expect((await focused(popup)).text).toBe('Confirm');
    await popup.keyboard.press('Enter');
    const outcome = popup.getByRole('region', { name: `Redeemed ${COFFEE}` });
    await outcome.waitFor();
    await expect.poll(async () => (await focused(popup)).id).toBe('redeem-outcome');
    await expect.poll(() => outcome.textContent()).toContain('Your balance is now 2,000 points.');
    await audit(popup, 'popup', 'redemption outcome (focused)');
    await popup.close();
  });

  test('popup, error: a failed refresh shows the error and focus moves to it', async () => {
    const popup = await open('popup.html');
    await popup.locator('.hdr-balance').waitFor();
    await injectFault(ext, { path: '/v1/panel/rewards', status: 500, times: 5 });
    await popup.getByRole('button', { name: 'Refresh: your points and rewards', exact: true }).click();
    const error = popup.getByRole('alert').filter({ hasText: 'has a problem right now — last updated' });
    await error.waitFor({ timeout: 30_000 });
    await expect.poll(async () => (await focused(popup)).id).toBe('sync-error');
    await audit(popup, 'popup', 'error (refresh failed)');
    await popup.close();
  });

  test('popup: an outcome being checked, its reward held back, and not found', async () => {
    await setLedger(ext, COFFEE, 'unknown');
    const popup = await open('popup.html');
    const checking = popup.getByRole('region', { name: `Checking whether ${COFFEE} went through` });
    await checking.waitFor();
    await audit(popup, 'popup', 'outcome unknown (being checked)');
    await popup.getByText('Held back: your last redemption of it is still being checked').waitFor();
    expect(await popup.getByRole('button', { name: `Redeem ${COFFEE}` }).isDisabled()).toBe(true);
    await audit(popup, 'popup', 'reward held back while its redemption is checked');
    await popup.close();

    await setLedger(ext, COFFEE, 'not_found');
    const later = await open('popup.html');
    await later.getByRole('region', { name: `${COFFEE} was not found in your history` }).waitFor();
    await audit(later, 'popup', 'outcome not found');
    await later.close();

    // The panel said yes and the history never showed it: the card asks to contact the panel, and
    // the reward's own Redeem below it is held, saying why, while the card says so.
    await setLedger(ext, COFFEE, 'not_found', 'success');
    const saidYes = await open('popup.html');
    const card = saidYes.getByRole('region', { name: `${COFFEE} was not found in your history` });
    await card.getByText('Contact Panel Rewards before redeeming it again.').waitFor();
    const redeem = saidYes.getByRole('button', { name: `Redeem ${COFFEE}`, exact: true });
    await expect.poll(() => redeem.isDisabled()).toBe(true);
    const why = await redeem.getAttribute('aria-describedby');
    expect(await saidYes.locator(`[id="${why}"]`).textContent()).toBe(
      'Held back: your last redemption of it is not in your history. Contact Panel Rewards before redeeming it again',
    );
    expect(await card.getByRole('button', { name: /^Redeem again/ }).count()).toBe(0);
    await audit(saidYes, 'popup', 'not found though the panel said yes: its reward held back');
    await saidYes.close();
    await setLedger(ext, COFFEE, null);
  });

  test('options: loaded, a profile validation error, a failed history refresh', async () => {
    const options = await open('options.html');
    await options.locator('.history-row').first().waitFor();
    await options.getByLabel(FIRST_NAME).waitFor();
    await audit(options, 'options', 'loaded (profile, history)');

    // The connection's details for support shown, and the prompt Disconnect opens.
    const connection = options.locator('#connection');
    await connection.getByText('Details for support').click();
    await connection.getByRole('button', { name: 'Disconnect', exact: true }).click();
    await connection.getByRole('group', { name: 'Confirm disconnecting' }).waitFor();
    // Escape is heard inside the prompt: focus reaches its Cancel after it shows (an effect).
    await expect.poll(async () => (await focused(options)).text).toBe('Cancel');
    await audit(options, 'options', 'connection details and the disconnect prompt');
    await options.keyboard.press('Escape');
    await connection.getByRole('group', { name: 'Confirm disconnecting' }).waitFor({ state: 'detached' });

    await options.getByLabel(FIRST_NAME).fill('x'.repeat(1001));
    await options.getByRole('button', { name: 'Save changes' }).click();
    await options.getByRole('alert').filter({ hasText: 'Nothing was saved' }).waitFor();
    const firstNameId = (await options.getByLabel(FIRST_NAME).getAttribute('id')) ?? '-';
    await expect.poll(async () => (await focused(options)).id).toBe(firstNameId);
    await audit(options, 'options', 'profile validation error');
    await options.getByRole('button', { name: 'Discard changes' }).click();
    await options.getByRole('status').filter({ hasText: 'Unsaved changes discarded.' }).waitFor();

    // A removal drafted ("Will be removed") and the notice of discarded edits.
    await options.getByRole('button', { name: `Remove answer ${FIRST_NAME}` }).click();
    await options.getByText('Will be removed').waitFor();
    const worker = await ext.worker();
    await worker.evaluate(() => chrome.storage.local.set({ 'notice:draft-discarded': { count: 1, at: Date.now() } }));
    await options.getByRole('button', { name: 'Dismiss this notice' }).waitFor();
    await audit(options, 'options', 'removal drafted, draft-discarded notice');
    await options.getByRole('button', { name: 'Dismiss this notice' }).click();
    await options.getByRole('button', { name: 'Discard changes' }).click();
    await options.getByRole('status').filter({ hasText: 'Unsaved changes discarded.' }).waitFor();

    await injectFault(ext, { path: '/v1/panel/redemptions', status: 500, times: 5 });
    await options.getByRole('button', { name: 'Refresh history' }).click();
    const error = options.locator('section[aria-labelledby="history-heading"] [role=alert]');
    await error.waitFor({ timeout: 30_000 });
    await expect.poll(() => error.evaluate((el) => el === document.activeElement)).toBe(true);
    // Its code behind "Details for support", shown.
    await options.locator('section[aria-labelledby="history-heading"] details.support summary').click();
    await audit(options, 'options', 'error (history refresh failed), details for support shown');
    await options.close();
  });
});

/**
 * Chromium with its UI in German: the extension's messages, numbers and dates follow.
 */
describe('in German', () => {
  let sandbox: Sandbox;
  let german: ExtensionSession;

  beforeAll(async () => {
    sandbox = await startSandbox();
    german = await launchExtension({ sandbox, locale: 'de' });
  });
  afterAll(async () => {
    await german?.close();
    await sandbox?.close();
  });

  test('connects, shows points and rewards in German with German numbers, and axe finds nothing', async () => {
    const options = await openAudited(german.context, german.extensionId, 'options.html');
    expect(await options.evaluate(() => document.documentElement.lang)).toBe('de');
    expect(await options.title()).toBe('Panel Rewards – Einstellungen');
    await options.getByLabel('Persönlicher Schlüssel').waitFor();
    await options.getByText('Erweitert', { exact: true }).click();
    await options.getByLabel('Panel-Adresse').fill(sandbox.url);
    await options.getByLabel('Persönlicher Schlüssel').fill(sandbox.token);
    await options.getByRole('button', { name: 'Verbinden', exact: true }).click();
    await options.getByRole('button', { name: 'Verbindung trennen' }).waitFor();
    await options.locator('.history-row').first().waitFor();
    // The heading shows while the profile still loads ("Ihr Profil wird geladen …"); its answers come after.
    await options.getByRole('heading', { name: 'Ihr Profil' }).waitFor();
    const removeAnswer = options.getByRole('button', { name: /^Antwort entfernen / });
    await removeAnswer.first().waitFor();
    expect(await options.locator('.history-row .state').allTextContents()).toContain('Abgeschlossen');
    // One word per concept: "Einstellungen" is this page, an answer is removed with
    // "Antwort entfernen", and no developer words (read with the profile's questions on the page).
    const text = await options.locator('body').innerText();
    expect(text).not.toMatch(/Zugangstoken|API-Basis|Token|Voreinstellungen|Optionen|Löschen|HTTP/);
    expect(await removeAnswer.count()).toBeGreaterThan(0);
    await audit(options, 'options', 'German, loaded');

    const popup = await openAudited(german.context, german.extensionId, 'popup.html');
    await expect.poll(() => popup.locator('.hdr-balance').textContent()).toBe('2.500 Punkte');
    expect(await popup.evaluate(() => document.documentElement.lang)).toBe('de');
    // The rows are painted a frame after the balance (and those below the first few by Preact): awaited.
    await expect.poll(() => popup.getByText('Ihnen fehlen 2.500 Punkte').count()).toBe(1);
    // The longer German words still fit the popup's width: nothing sticks out or scrolls sideways.
    expect(
      await popup.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
    ).toBe(true);
    const widest = await popup
      .locator('main')
      .evaluate((main) =>
        Math.max(...Array.from(main.querySelectorAll('*'), (el) => el.getBoundingClientRect().right)),
      );
    expect(widest).toBeLessThanOrEqual(await popup.evaluate(() => document.body.getBoundingClientRect().right));
    await popup.getByRole('button', { name: `${COFFEE} einlösen` }).click();
    const dialog = popup.getByRole('alertdialog', { name: 'Einlösung bestätigen' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(
      `${COFFEE} für 500 Punkte einlösen? Ihr Punktestand beträgt danach 2.000 Punkte.`,
    );
    await audit(popup, 'popup', 'German, confirmation dialog open');
    await popup.close();

    await setLedger(german, COFFEE, 'unknown');
    const checking = await openAudited(german.context, german.extensionId, 'popup.html');
    await checking.getByRole('region', { name: `Wird geprüft: Wurde ${COFFEE} eingelöst?` }).waitFor();
    await audit(checking, 'popup', 'German, outcome unknown (being checked)');
  });
});
