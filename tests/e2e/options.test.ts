import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { StoredValues } from '../../utils/types';
import { axeViolations } from './axe';
import { control, injectFault, serverState } from './control';
import { seedBalanceHistory } from './balance-samples';
import { afterFailure, launchExtension, type ExtensionSession } from './harness';

const DAY = 86_400_000;

/**
 * The options page in Chromium against the sandbox (connect, profile, history, disconnect), driven
 * by what a panelist sees: labels, roles and button names. The tests run in order on one browser
 * and one sandbox.
 */

let ext: ExtensionSession;
let page: Page;

const Q = {
  firstName: 'What is your first name?',
  birthDate: 'What is your date of birth?',
  hobbies: 'Which of these hobbies do you enjoy? Select all that apply.',
  employment: 'Which best describes your current employment status?',
  // The panel sent only its internal name, POSTAL_CODE: shown in words.
  postalCode: 'Postal code',
  education: 'What is the highest level of education you have completed?',
};

async function serverValues(): Promise<StoredValues> {
  return (await serverState(ext)).values;
}

async function storedKeys(): Promise<Record<string, unknown>> {
  const worker = await ext.worker();
  return worker.evaluate(() => chrome.storage.local.get(null));
}

const group = (name: string) => page.getByRole('group', { name, exact: true });
const status = (text: string | RegExp) => page.getByRole('status').filter({ hasText: text });

/** Where an element is on screen, and how tall the window is. */
async function box(selector: string) {
  return page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, height: r.height, viewport: innerHeight };
    });
}

async function openOptions(path = 'options.html'): Promise<Page> {
  const opened = await ext.openPage(path as 'options.html');
  await opened.setViewportSize({ width: 900, height: 1200 });
  return opened;
}

beforeAll(async () => {
  ext = await launchExtension();
  page = await openOptions();
});

afterAll(async () => {
  await ext?.close();
});

// A failed test may leave the page anywhere (the disconnect prompt open, say): the next gets a fresh one.
afterFailure(async () => {
  await page?.close();
  page = await openOptions();
});

describe('options page against the sandbox', () => {
  test('a wrong key gets a clear error in plain words and stores nothing; the right one connects', async () => {
    const token = page.getByLabel('Personal key');
    await token.waitFor();
    expect(await token.getAttribute('type')).toBe('password');
    expect(await token.getAttribute('autocomplete')).toBe('off');
    expect(await token.getAttribute('spellcheck')).toBe('false');
    const help = page.getByRole('link', { name: 'Where do I find this?' });
    expect(await help.getAttribute('href')).toBe('https://panel.example.com/help/personal-key');
    // The build knows its panel: the address waits behind "Advanced".
    const url = page.getByLabel('Panel address');
    expect(await url.isVisible()).toBe(false);
    await page.getByText('Advanced', { exact: true }).click();
    await url.waitFor();
    expect(await url.inputValue()).toBe(ext.sandbox.url);
    expect(await page.locator('body').innerText()).not.toMatch(/API base URL|access token|Token/i);

    await token.fill('not-the-right-token');
    await page.getByRole('button', { name: 'Connect' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      'Panel Rewards did not accept this key. Check that you copied the whole key, then connect again.',
    );
    expect(await token.inputValue()).toBe('not-the-right-token');
    const afterWrong = await storedKeys();
    expect(afterWrong).not.toHaveProperty('credentials');
    expect((afterWrong.session as { connected?: boolean } | undefined)?.connected ?? false).toBe(false);

    // Connecting with Enter: the form gives way to the account, and focus goes there, not to the top.
    await token.fill(ext.sandbox.token);
    await token.press('Enter');
    await page.getByRole('button', { name: 'Disconnect' }).waitFor();
    const account = page.getByRole('heading', { name: 'Your account', level: 2 });
    await expect.poll(() => account.evaluate((el) => el === document.activeElement)).toBe(true);
    // Arrived at, not typed into: no focus ring on a heading.
    expect(await account.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('none');
    // How, in the panelist's words; the key's last characters and the panel's address for support, a click away.
    expect(await page.getByText('Connected with your personal key.').isVisible()).toBe(true);
    const support = page.locator('#connection details.support');
    expect(await support.getByText(`Personal key ending in ••••${ext.sandbox.token.slice(-4)}`).isVisible()).toBe(
      false,
    );
    await support.getByText('Details for support').click();
    expect(await support.getByText(`Personal key ending in ••••${ext.sandbox.token.slice(-4)}`).isVisible()).toBe(true);
    expect(await support.getByText(`Panel address: ${ext.sandbox.url}`).isVisible()).toBe(true);
    expect(await page.getByLabel('Personal key').count()).toBe(0);
    // The account's summary comes with the account's data, after the connection itself.
    await expect.poll(() => status('Connected to Panel Rewards.').count()).toBe(1);
    // Said once, in the account's summary: the connection's details name the panel, they do not say "Connected to" again.
    expect((await page.locator('main').innerText()).match(/Connected to/g)).toHaveLength(1);
    expect(await page.locator('section[aria-labelledby="summary-heading"]').innerText()).toContain(
      'Connected to Panel Rewards.',
    );
  });

  test('one edit of each writable type is saved in one update and lands on the server', async () => {
    await page.getByLabel(Q.firstName).waitFor();
    await page.getByLabel(Q.firstName).fill('Sam');
    await page.getByLabel(Q.birthDate).fill('1990-05-06');
    await group(Q.hobbies).getByLabel('Cooking').check();
    await group(Q.employment).getByLabel('Student').check();
    await group(Q.education).getByLabel("Bachelor's degree").check();
    await page.getByLabel(Q.postalCode).fill('10115');
    await page.getByText('6 unsaved changes').waitFor();

    // Questions are shown by their text; internal names stay out of view.
    expect(await page.locator('main').innerText()).not.toMatch(/FIRST_NAME|BIRTH_DATE|POSTAL_CODE/);

    const before = ext.sandbox.requests.length;
    await page.getByRole('button', { name: 'Save changes' }).click();
    await status('Saved 6 changes.').waitFor();
    // The confirmation shows in the sticky save bar, in view where Save was pressed.
    const saved = await box('.save-bar [role=status]');
    expect(saved.top).toBeGreaterThanOrEqual(0);
    expect(saved.bottom).toBeLessThanOrEqual(saved.viewport);
    const writes = ext.sandbox.requests
      .slice(before)
      .filter((r) => r.method === 'POST' && r.path === '/v1/panel/variables/data');
    expect(writes).toHaveLength(1);
    expect(Object.keys(writes[0]!.body as object).sort()).toEqual([
      'BIRTH_DATE',
      'EDUCATION',
      'EMPLOYMENT',
      'FIRST_NAME',
      'HOBBIES',
      'POSTAL_CODE',
    ]);

    const values = await serverValues();
    expect(values).toMatchObject({
      FIRST_NAME: 'Sam',
      BIRTH_DATE: '1990-05-06',
      EMPLOYMENT: 144,
      EDUCATION: 183,
      POSTAL_CODE: '10115',
    });
    expect([...(values.HOBBIES as number[])].sort((a, b) => a - b)).toEqual([131, 132, 133]);
    // Nothing left to save: the bar's buttons go, its confirmation stays.
    await page.getByRole('button', { name: 'Save changes' }).waitFor({ state: 'detached' });
  });

  test('a refused save keeps the edits on screen, beside the field, and across reopening the page', async () => {
    const hobbies = group(Q.hobbies);
    await hobbies.getByLabel('None of these').check();
    // The exclusive option cleared the others.
    for (const other of ['Reading', 'Cooking', 'Hiking'])
      expect(await hobbies.getByLabel(other).isChecked()).toBe(false);
    await page.getByLabel(Q.firstName).fill('Alex');

    await fetch(`${ext.sandbox.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        method: 'POST',
        path: '/v1/panel/variables/data',
        status: 422,
        body: JSON.stringify({ message: 'Variable FIRST_NAME is not writable', field: 'FIRST_NAME' }),
      }),
    });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('alert').filter({ hasText: 'Nothing was saved' }).waitFor();
    const field = page.locator('.field').filter({ has: page.getByLabel(Q.firstName) });
    expect(await field.locator('.field-error').textContent()).toContain('FIRST_NAME is not writable');
    // Focus is on the question, with its label in view and its control clear of the sticky bar.
    await expect.poll(() => page.getByLabel(Q.firstName).evaluate((el) => el === document.activeElement)).toBe(true);
    const label = await box(`label:text-is("${Q.firstName}")`);
    const bar = await box('.save-bar');
    expect(label.top).toBeGreaterThanOrEqual(0);
    expect((await box(`#${await page.getByLabel(Q.firstName).getAttribute('id')}`)).bottom).toBeLessThanOrEqual(
      bar.top,
    );
    expect(await page.getByLabel(Q.firstName).inputValue()).toBe('Alex');
    expect(await hobbies.getByLabel('None of these').isChecked()).toBe(true);
    expect((await serverValues()).FIRST_NAME).toBe('Sam');

    await page.close();
    page = await openOptions();
    // The edits come back from storage: read once they are counted, not as the page first paints.
    await page.getByText('2 unsaved changes').waitFor();
    expect(await page.getByLabel(Q.firstName).inputValue()).toBe('Alex');
    expect(await group(Q.hobbies).getByLabel('None of these').isChecked()).toBe(true);

    await page.getByRole('button', { name: 'Discard changes' }).click();
    await status('Unsaved changes discarded.').waitFor();
    expect(await page.getByRole('button', { name: 'Save changes' }).count()).toBe(0);
    expect(await page.getByLabel(Q.firstName).inputValue()).toBe('Sam');
  });

  test('removing answers goes through Save: "Remove answer" and an emptied field, one DELETE each', async () => {
    await page.getByRole('button', { name: `Remove answer ${Q.postalCode}` }).click();
    expect(await page.getByLabel(Q.postalCode).inputValue()).toBe('');
    await page.getByLabel(Q.birthDate).fill('');
    await page.getByText('2 unsaved changes').waitFor();
    expect((await serverValues()).POSTAL_CODE).toBe('10115');

    const before = ext.sandbox.requests.length;
    await page.getByRole('button', { name: 'Save changes' }).click();
    await status('Saved 2 changes.').waitFor();
    const deletes = ext.sandbox.requests.slice(before).filter((r) => r.method === 'DELETE');
    expect(deletes.map((r) => r.path).sort()).toEqual([
      '/v1/panel/variables/data/BIRTH_DATE',
      '/v1/panel/variables/data/POSTAL_CODE',
    ]);
    const values = await serverValues();
    expect(values).not.toHaveProperty('POSTAL_CODE');
    expect(values).not.toHaveProperty('BIRTH_DATE');
    expect(await page.getByLabel(Q.postalCode).inputValue()).toBe('');
  });

  test('the save bar shows only once something changed; focus never hides under the page edge or the bar', async () => {
    await page.reload();
    await page.getByLabel(Q.firstName).waitFor();
    expect(await page.locator('.save-bar').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Save changes' }).count()).toBe(0);
    await page.getByLabel(Q.firstName).fill('Robin');
    await page.getByText('1 unsaved change').waitFor();
    const dirty = await box('.save-bar');
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await status('Unsaved changes discarded.').waitFor();
    // What became of the change, on one short line without buttons.
    expect((await box('.save-bar')).height).toBeLessThan(dirty.height);
    expect(
      parseFloat(await page.evaluate(() => getComputedStyle(document.documentElement).scrollPaddingTop)),
    ).toBeGreaterThanOrEqual(16);
    expect(
      parseFloat(await page.evaluate(() => getComputedStyle(document.documentElement).scrollPaddingBottom)),
    ).toBeGreaterThanOrEqual(dirty.height);
  });

  test('a notice says how many edits connecting another account discarded, until dismissed', async () => {
    const worker = await ext.worker();
    await worker.evaluate(() => chrome.storage.local.set({ 'notice:draft-discarded': { count: 2, at: Date.now() } }));
    const notice = page.getByText(
      '2 unsaved profile changes were discarded: they were made for the account connected before.',
    );
    await notice.waitFor();
    await page.getByRole('button', { name: 'Dismiss this notice' }).click();
    await notice.waitFor({ state: 'detached' });
    // Removed by the background for this session (a page never writes session data): stored as null, read as absent.
    expect((await storedKeys())['notice:draft-discarded'] ?? null).toBeNull();
  });

  test('history shows the seeded redemptions newest first with their states', async () => {
    const rows = page.locator('.history-row');
    await rows.first().waitFor();
    const seeded = [...ext.sandbox.state.redemptions].sort((a, b) => b.created_at.localeCompare(a.created_at));
    expect(await rows.locator('.reward-name').allTextContents()).toEqual(seeded.map((r) => r.reward.name));
    expect(await rows.locator('.state').allTextContents()).toEqual([
      'Pending',
      'Approved',
      'In review',
      'Complete',
      'Unclaimed',
      'Failed: Gift card out of stock for this denomination',
      'Points returned',
      'Complete',
      'Complete',
    ]);
    expect(await rows.locator('.state-other').getAttribute('title')).toBe('Status reported by the provider: IN_REVIEW');
    expect(await rows.filter({ hasText: 'Unclaimed' }).textContent()).toContain(
      'Not claimed yet: open the e-mail from the reward provider',
    );
    // The theme's state colours, as in the popup: done, failed and under way each look different.
    const colour = (kind: string) =>
      rows
        .locator(`.state-${kind}`)
        .first()
        .evaluate((el) => getComputedStyle(el).color);
    expect(new Set([await colour('complete'), await colour('failed'), await colour('pending')]).size).toBe(3);
    // Points returned is good news, not a failure; approved is on its way, not still pending.
    expect(await colour('refunded')).not.toBe(await colour('failed'));
    expect(await colour('approved')).not.toBe(await colour('pending'));
    await page.getByRole('button', { name: 'Refresh history' }).click();
    await status('History is up to date.').waitFor();
  });

  test('options.html#history opens at the history, focused, and a later #history goes there again', async () => {
    const opened = await openOptions('options.html#history');
    await opened.locator('.history-row').first().waitFor();
    const heading = opened.getByRole('heading', { name: 'Redemption history' });
    await expect.poll(() => heading.evaluate((el) => el === document.activeElement)).toBe(true);
    const top = async () => heading.evaluate((el) => el.getBoundingClientRect().top);
    // At the top of the window, even when the rows arrived after the first scroll.
    await expect.poll(top).toBeLessThan(100);
    expect(await top()).toBeGreaterThanOrEqual(0);

    await opened.evaluate(() => {
      history.replaceState(null, '', '#');
      scrollTo(0, 0);
      (document.activeElement as HTMLElement).blur();
    });
    expect(await top()).toBeGreaterThan(300);
    await opened.evaluate(() => (location.hash = 'history'));
    await expect.poll(() => heading.evaluate((el) => el === document.activeElement)).toBe(true);
    await expect.poll(top).toBeLessThan(100);
    await opened.close();
  });

  test('a checkbox answer the panel holds by its options’ names shows them ticked; ticking another keeps them', async () => {
    const { values } = await serverState(ext);
    await control(ext, '/state', 'PATCH', { values: { ...values, HOBBIES: ['READING', 'GAMING'] } });
    await page.getByRole('button', { name: 'Reload profile' }).click();
    const hobbies = group(Q.hobbies);
    await expect.poll(() => hobbies.getByLabel('Video games').isChecked()).toBe(true);
    expect(await hobbies.getByLabel('Reading').isChecked()).toBe(true);
    expect(await hobbies.getByLabel('Cooking').isChecked()).toBe(false);
    await hobbies.getByLabel('Cooking').check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await status('Saved 1 change.').waitFor();
    expect([...((await serverValues()).HOBBIES as number[])].sort((a, b) => a - b)).toEqual([131, 132, 134]);
  });

  test('opened days after the last read, the popup and the balance chart say what was earned up to that read, dated', async () => {
    // The pages' clock runs four days ahead of the worker's: the panelist opens them four days after
    // the worker's reads, which are the last ones (what a panel down since would leave).
    const later = Date.now() + 4 * DAY;
    const { balance } = await serverState(ext);
    const worker = await ext.worker();
    const daysBefore = (days: number, points: number) => ({ at: later - days * DAY, points });
    // Rises of 410, 410 and 820 points in the 30 days before the last read; the first sample is older.
    await worker.evaluate(seedBalanceHistory, [
      daysBefore(40, balance - 1640),
      daysBefore(25, balance - 1230),
      daysBefore(18, balance - 820),
      daysBefore(4.5, balance),
    ]);
    // What the model says: the period ends at the last read (the catalogue's, or the last sample's), 30 days long.
    const expected = async () => {
      const stored = await worker.evaluate(() => chrome.storage.local.get(['view:popup', 'balance:history']));
      const view = stored['view:popup'] as { rewards: { fetchedAt: number } };
      const samples = stored['balance:history'] as Array<{ at: number }>;
      const until = Math.max(view.rewards.fetchedAt, samples.at(-1)!.at);
      const day = (at: number) => new Date(at).toLocaleDateString('en-US', { dateStyle: 'medium' });
      return `1,640 points earned between ${day(until - 30 * DAY)} and ${day(until)}`;
    };
    const opened: Page[] = [];
    const openLater = async (path: string) => {
      const shown = await ext.context.newPage();
      opened.push(shown);
      await shown.clock.setFixedTime(later);
      await shown.goto(`chrome-extension://${ext.extensionId}/${path}`);
      return shown;
    };
    try {
      const popup = await openLater('popup.html');
      const line = popup.locator('.goal-change');
      // Shown and wanted side by side, so a failure prints both.
      const same = ([shown, wanted]: Array<string | null | undefined>) => shown === wanted;
      await expect.poll(async () => [await line.textContent(), await expected()]).toSatisfy(same);
      expect(await popup.textContent('body')).not.toContain('in the last 30 days');
      const options = await openLater('options.html#balance');
      const section = options.getByRole('region', { name: 'Balance over time' });
      const summary = section.locator('.balance-summary strong');
      await expect.poll(async () => [await summary.textContent(), await expected()]).toSatisfy(same);
      expect(await section.textContent()).not.toMatch(/in the last 30 days|today/i);
    } finally {
      for (const page1 of opened) await page1.close();
    }
  });

  test('the connected page has no axe violations', async () => {
    await page.reload();
    await page.locator('.history-row').first().waitFor();
    await page.getByLabel(Q.firstName).waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });

  test('by keyboard, Disconnect asks first: its prompt opens on Cancel, Enter twice and Escape leave the account connected', async () => {
    const disconnect = page.getByRole('button', { name: 'Disconnect', exact: true });
    const prompt = page.getByRole('group', { name: 'Confirm disconnecting' });
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim());
    await disconnect.focus();
    await page.keyboard.press('Enter');
    await prompt.waitFor();
    // The safe choice has focus: a second Enter cancels instead of disconnecting.
    await expect.poll(focused).toBe('Cancel');
    await page.keyboard.press('Enter');
    await prompt.waitFor({ state: 'detached' });
    await expect.poll(focused).toBe('Disconnect');
    // Escape cancels too, from wherever focus is inside the prompt.
    await page.keyboard.press('Enter');
    await prompt.waitFor();
    // Focus reaches Cancel after the prompt shows (an effect): Tab pressed before it would start from Disconnect.
    await expect.poll(focused).toBe('Cancel');
    await page.keyboard.press('Tab');
    await expect.poll(focused).toBe('Yes, disconnect');
    await page.keyboard.press('Escape');
    await prompt.waitFor({ state: 'detached' });
    await expect.poll(focused).toBe('Disconnect');
    expect((await storedKeys()).session).toMatchObject({ connected: true });
    expect(await page.getByText('Connected with your personal key.').isVisible()).toBe(true);
  });

  test('disconnecting removes the token, and the popup then asks to connect', async () => {
    await page.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByRole('button', { name: 'Yes, disconnect' }).click();
    await page.getByLabel('Personal key').waitFor();
    // Focus goes on to the connect form's first field, not to the page.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('access-token');
    const stored = await storedKeys();
    // Emptied in the same storage.local.set that ends the session (store.ts).
    expect(stored.credentials ?? null).toBeNull();
    expect(JSON.stringify(stored)).not.toContain(ext.sandbox.token);
    expect(stored.session).toMatchObject({ connected: false });

    const popup = await ext.openPage('popup.html');
    await popup.getByRole('button', { name: 'Connect', exact: true }).waitFor();
  });
});

/**
 * Connecting checks the key with GET /v1/panel/variables/data, whose shape the interface does not
 * show: any JSON 2xx accepts the key, a web page does not. And a panel whose balance comes from
 * that read, failing: the rewards stay listed, the balance told as not read, never unknown.
 */
describe('the values read: the key check, and a balance not read', () => {
  const VALUES = '/v1/panel/variables/data';
  const COFFEE = 'Bluefin Coffee $5 Gift Card';

  test('connecting while the values answer a web page refuses the key; answering {"message":"success"} connects', async () => {
    await control(ext, '/faults', 'DELETE');
    // Starts disconnected, as the test before leaves it.
    if (await page.getByRole('button', { name: 'Disconnect', exact: true }).isVisible()) {
      await page.getByRole('button', { name: 'Disconnect', exact: true }).click();
      await page.getByRole('button', { name: 'Yes, disconnect' }).click();
    }
    const token = page.getByLabel('Personal key');
    await token.waitFor();
    await injectFault(ext, {
      method: 'GET',
      path: VALUES,
      status: 200,
      headers: { 'Content-Type': 'text/html' },
      body: '<!doctype html><html><body>Sign in</body></html>',
      times: 3,
    });
    await token.fill(ext.sandbox.token);
    await page.getByRole('button', { name: 'Connect' }).click();
    // The connect form's words for an answer that is not the panel's (errPanelUnreadable).
    await page
      .getByRole('alert')
      .filter({ hasText: 'Panel Rewards sent an answer this extension could not read.' })
      .waitFor();
    expect(await token.inputValue()).toBe(ext.sandbox.token);
    expect((await storedKeys()).session).not.toMatchObject({ connected: true });

    await control(ext, '/faults', 'DELETE');
    await injectFault(ext, { method: 'GET', path: VALUES, status: 200, body: '{"message":"success"}', times: 3 });
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByRole('button', { name: 'Disconnect' }).waitFor();
    expect(await page.getByText('Connected with your personal key.').isVisible()).toBe(true);
    const popup = await ext.openPage('popup.html');
    await popup.getByRole('button', { name: `Redeem ${COFFEE}` }).waitFor();
    await expect.poll(() => popup.locator('.hdr-balance').textContent()).toBe('2,500 points');
    await popup.close();
    await control(ext, '/faults', 'DELETE');
  });

  test('a balance that could not be read: the rewards stay, Redeem still asks, Retry reads it once the panel answers', async () => {
    await control(ext, '/faults', 'DELETE');
    if (!(await page.getByRole('button', { name: 'Disconnect', exact: true }).isVisible())) await ext.connect();
    await control(ext, '/state', 'PATCH', { balanceIn: 'variables' });
    await injectFault(ext, { method: 'GET', path: VALUES, status: 503, times: 1000 });
    const popup = await ext.openPage('popup.html');
    try {
      await popup.getByRole('button', { name: 'Refresh: your points and rewards', exact: true }).click();
      // Why, and how old the rewards shown are: they are from the last read that came back.
      await popup.getByText(/— your balance could not be read; rewards last updated (just now|.* ago)$/).waitFor();
      const retry = popup.getByRole('button', { name: 'Retry: your points and rewards', exact: true });
      await retry.waitFor();
      expect(await popup.getByText('Balance unknown').count()).toBe(0);
      await popup.getByRole('button', { name: `Redeem ${COFFEE}` }).click();
      const dialog = popup.getByRole('alertdialog');
      await dialog.getByRole('button', { name: `Confirm redeeming ${COFFEE}` }).waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });

      await page.reload();
      await page.getByText('Your balance could not be read').waitFor();
      expect(await page.getByText('Balance unknown').count()).toBe(0);

      await control(ext, '/faults', 'DELETE');
      await retry.click();
      await expect.poll(() => popup.locator('.hdr-balance').textContent()).toBe('2,500 points');
      expect(await popup.getByText(/your balance could not be read/i).count()).toBe(0);
    } finally {
      await popup.close();
      await control(ext, '/faults', 'DELETE');
      await control(ext, '/state', 'PATCH', { balanceIn: 'rewards' });
    }
  });
});
