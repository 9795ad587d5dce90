import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { StoredValues } from '../../utils/types';
import { axeViolations } from './axe';
import { serverState } from './control';
import { launchExtension, type ExtensionSession } from './harness';

/**
 * Issue 4's "Done when", in Chromium against the sandbox, driven by what a panelist sees: labels,
 * roles and button names. The tests run in order on one browser and one sandbox.
 */

let ext: ExtensionSession;
let page: Page;

const Q = {
  firstName: 'What is your first name?',
  birthDate: 'What is your date of birth?',
  hobbies: 'Which of these hobbies do you enjoy? Select all that apply.',
  employment: 'Which best describes your current employment status?',
  postalCode: 'POSTAL_CODE',
  education: 'What is the highest level of education you have completed?',
};

async function serverValues(): Promise<StoredValues> {
  return (await serverState(ext)).values as StoredValues;
}

async function storedKeys(): Promise<Record<string, unknown>> {
  const worker = await ext.worker();
  return worker.evaluate(() => chrome.storage.local.get(null));
}

const group = (name: string) => page.getByRole('group', { name, exact: true });
const status = (text: string | RegExp) => page.getByRole('status').filter({ hasText: text });

async function openOptions(): Promise<Page> {
  const opened = await ext.openPage('options.html');
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

describe('options page against the sandbox', () => {
  test('a wrong token gets a clear error and stores nothing; the right one connects', async () => {
    const url = page.getByLabel('API base URL');
    const token = page.getByLabel('Access token');
    await expect.poll(() => url.inputValue()).toBe(ext.sandbox.url);
    expect(await token.getAttribute('type')).toBe('password');
    expect(await token.getAttribute('autocomplete')).toBe('off');
    expect(await token.getAttribute('spellcheck')).toBe('false');

    await token.fill('not-the-right-token');
    await page.getByRole('button', { name: 'Connect' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(`${ext.sandbox.url} did not accept this access token. Check that you copied the whole access token from your panel, then connect again.`);
    expect(await token.inputValue()).toBe('not-the-right-token');
    const afterWrong = await storedKeys();
    expect(afterWrong).not.toHaveProperty('credentials');
    expect((afterWrong.session as { connected?: boolean } | undefined)?.connected ?? false).toBe(false);

    await token.fill(ext.sandbox.token);
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByRole('button', { name: 'Disconnect' }).waitFor();
    expect(await page.getByText(`Token ending in ••••${ext.sandbox.token.slice(-4)}`).isVisible()).toBe(true);
    expect(await page.getByText(ext.sandbox.url, { exact: true }).isVisible()).toBe(true);
    expect(await page.getByLabel('Access token').count()).toBe(0);
    expect(await status(`Connected to ${ext.sandbox.url}.`).count()).toBe(1);
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

    const before = ext.sandbox.requests.length;
    await page.getByRole('button', { name: 'Save changes' }).click();
    await status('Saved 6 changes.').waitFor();
    const writes = ext.sandbox.requests.slice(before).filter((r) => r.method === 'POST' && r.path === '/v1/panel/variables/data');
    expect(writes).toHaveLength(1);
    expect(Object.keys(writes[0]!.body as object).sort()).toEqual(['BIRTH_DATE', 'EDUCATION', 'EMPLOYMENT', 'FIRST_NAME', 'HOBBIES', 'POSTAL_CODE']);

    const values = await serverValues();
    expect(values).toMatchObject({ FIRST_NAME: 'Sam', BIRTH_DATE: '1990-05-06', EMPLOYMENT: 144, EDUCATION: 183, POSTAL_CODE: '10115' });
    expect([...(values.HOBBIES as number[])].sort()).toEqual([131, 132, 133]);
    await page.getByText('No unsaved changes').waitFor();
  });

  test('a refused save keeps the edits on screen, beside the field, and across reopening the page', async () => {
    const hobbies = group(Q.hobbies);
    await hobbies.getByLabel('None of these').check();
    // The exclusive option cleared the others.
    for (const other of ['Reading', 'Cooking', 'Hiking']) expect(await hobbies.getByLabel(other).isChecked()).toBe(false);
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
    expect(await page.getByLabel(Q.firstName).inputValue()).toBe('Alex');
    expect(await hobbies.getByLabel('None of these').isChecked()).toBe(true);
    expect((await serverValues()).FIRST_NAME).toBe('Sam');

    await page.close();
    page = await openOptions();
    await page.getByLabel(Q.firstName).waitFor();
    expect(await page.getByLabel(Q.firstName).inputValue()).toBe('Alex');
    expect(await group(Q.hobbies).getByLabel('None of these').isChecked()).toBe(true);
    await page.getByText('2 unsaved changes').waitFor();

    await page.getByRole('button', { name: 'Discard changes' }).click();
    await page.getByText('No unsaved changes').waitFor();
    expect(await page.getByLabel(Q.firstName).inputValue()).toBe('Sam');
  });

  test('clearing a value, once confirmed, deletes it on the server', async () => {
    await page.getByRole('button', { name: `Clear ${Q.postalCode}` }).click();
    await page.getByRole('button', { name: 'Remove answer' }).click();
    await status(`Removed your answer to “${Q.postalCode}”.`).waitFor();
    expect(await serverValues()).not.toHaveProperty('POSTAL_CODE');
    expect(await page.getByLabel(Q.postalCode).inputValue()).toBe('');
  });

  test('history shows the seeded redemptions newest first with their states', async () => {
    const rows = page.locator('.history-row');
    await rows.first().waitFor();
    const seeded = [...ext.sandbox.state.redemptions].sort((a, b) => b.created_at.localeCompare(a.created_at));
    expect(await rows.locator('.reward-name').allTextContents()).toEqual(seeded.map((r) => r.reward.name));
    expect(await rows.locator('.state').allTextContents()).toEqual([
      'Pending',
      'Approved',
      'IN_REVIEW',
      'Complete',
      'Unclaimed',
      'Failed: Gift card out of stock for this denomination',
      'Refunded',
      'Complete',
      'Complete',
    ]);
    await page.getByRole('button', { name: 'Refresh history' }).click();
    await status('History is up to date.').waitFor();
  });

  test('the connected page has no axe violations', async () => {
    await page.reload();
    await page.locator('.history-row').first().waitFor();
    await page.getByLabel(Q.firstName).waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });

  test('disconnecting removes the token, and the popup then asks to connect', async () => {
    await page.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByRole('button', { name: 'Yes, disconnect' }).click();
    await page.getByLabel('Access token').waitFor();
    const stored = await storedKeys();
    expect(stored).not.toHaveProperty('credentials');
    expect(JSON.stringify(stored)).not.toContain(ext.sandbox.token);
    expect(stored.session).toMatchObject({ connected: false });

    const popup = await ext.openPage('popup.html');
    await popup.getByRole('button', { name: 'Connect your account' }).waitFor();
  });
});
