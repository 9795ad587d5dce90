import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { VariableDefinition } from '../../utils/types';
import { axeViolations } from './axe';
import { control, requestCount, serverState, stored } from './control';
import { launchExtension, type ExtensionSession } from './harness';
import { popupSettled } from './popup-ready';

/**
 * Answering the profile in Chromium against the sandbox, by what a panelist sees: the popup's open questions →
 * "Answer now" → two answered and one skipped, one at a time, by keyboard → the counts follow in
 * the popup and on the options page; a question the panel adds is tagged "New". axe in both colour
 * schemes. (The notification of a new question: notifications.test.ts, whose build holds that
 * permission.)
 */

let ext: ExtensionSession;
let popup: Page;
let options: Page;

const HOUSEHOLD: VariableDefinition = {
  id: 190,
  name: 'HOUSEHOLD_SIZE',
  text: 'How many people live in your household?',
  uuid: 'household-size',
  type: 'radio',
  writable: true,
  options: [
    { id: 191, name: 'ONE', text: 'Just me', exclusive: false },
    { id: 192, name: 'TWO_OR_MORE', text: 'Two or more', exclusive: false },
  ],
};
const PETS: VariableDefinition = {
  ...HOUSEHOLD,
  id: 195,
  name: 'PETS',
  text: 'Do you have pets at home?',
  uuid: 'pets',
};

const line = (page: Page) => page.locator('header p').filter({ has: page.getByRole('link', { name: 'Answer now' }) });
const focusedLabel = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent?.trim() ?? '');
const variablesRequests = async () =>
  (await requestCount(ext, '/v1/panel/variables/meta')) + (await requestCount(ext, '/v1/panel/variables/data'));

async function audit(page: Page, state: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await axeViolations(page), `${state}, ${scheme}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

beforeAll(async () => {
  ext = await launchExtension();
  // The seed leaves the postal code and the education open; with this one, three questions are.
  const { variables } = await serverState(ext);
  await control(ext, '/state', 'PATCH', { variables: [...variables.slice(0, 5), HOUSEHOLD, ...variables.slice(5)] });
  await ext.connect();
});

afterAll(async () => {
  await ext?.close();
});

describe('open profile questions, answered one at a time', () => {
  test('the popup says how many are open, quietly, without asking the panel anything', async () => {
    popup = await ext.openPage('popup.html');
    await popup.setViewportSize({ width: 380, height: 600 });
    const before = await variablesRequests();
    await line(popup).waitFor();
    expect(await line(popup).textContent()).toBe('3 profile questions open · Answer now');
    // Never more prominent than the balance.
    const size = (selector: string) =>
      popup
        .locator(selector)
        .first()
        .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    expect(await line(popup).evaluate((el) => parseFloat(getComputedStyle(el).fontSize))).toBeLessThan(
      await size('.hdr-balance'),
    );
    await popupSettled(popup);
    expect(await variablesRequests()).toBe(before);
    await audit(popup, 'popup with open questions');
  });

  test('"Answer now" opens the options page at the first open question; two answered by keyboard, one skipped', async () => {
    const opened = ext.context.waitForEvent('page');
    await popup.getByRole('link', { name: 'Answer now' }).click();
    options = await opened;
    await options.setViewportSize({ width: 900, height: 1000 });
    const heading = options.locator('#answer-flow-heading');
    await heading.filter({ hasText: 'Question 1 of 3' }).waitFor();
    await expect.poll(() => focusedLabel(options)).toBe('Postal code');
    await audit(options, 'one question at a time');

    await options.keyboard.type('10115');
    await options.keyboard.press('Enter');
    await heading.filter({ hasText: 'Question 2 of 3' }).waitFor();
    await options.getByRole('status').filter({ hasText: 'Saved your answer to “Postal code”.' }).waitFor();
    expect(await options.getByRole('group', { name: HOUSEHOLD.text }).isVisible()).toBe(true);
    await expect.poll(() => focusedLabel(options)).toBe('Just me');
    await options.getByRole('button', { name: `Skip: ${HOUSEHOLD.text}`, exact: true }).click();

    await heading.filter({ hasText: 'Question 3 of 3' }).waitFor();
    await expect.poll(() => focusedLabel(options)).toBe('Secondary school');
    // Arrow keys move through the choices, Enter saves it.
    await options.keyboard.press('ArrowDown');
    await options.keyboard.press('Enter');
    await heading.filter({ hasText: 'Thank you!' }).waitFor();
    // The thank-you is the round's heading, in the page's text colour and larger than it: not a small grey label.
    const looks = await heading.evaluate((h) => {
      const [own, page] = [getComputedStyle(h), getComputedStyle(document.body)];
      return { color: own.color === page.color, larger: parseFloat(own.fontSize) > parseFloat(page.fontSize) };
    });
    expect(looks).toEqual({ color: true, larger: true });
    expect(await options.locator('.answer-flow [role=status]').textContent()).toBe(
      'You answered 2 questions. 1 skipped question is still open.',
    );
    const values = (await serverState(ext)).values;
    expect(values).toMatchObject({ POSTAL_CODE: '10115', EDUCATION: 182 });
    expect(values).not.toHaveProperty('HOUSEHOLD_SIZE');
    await audit(options, 'thank-you');
  });

  test('the counts follow on the options page and in the popup', async () => {
    await options.getByRole('button', { name: 'Back to your profile' }).click();
    await options.getByText('6 of 7 answered', { exact: true }).waitFor();
    expect(await options.getByRole('progressbar', { name: '6 of 7 answered' }).getAttribute('value')).toBe('6');
    await options.getByLabel('Open questions only').check();
    expect(await options.locator('form .field').count()).toBe(1);
    expect(await options.getByRole('group', { name: HOUSEHOLD.text }).isVisible()).toBe(true);
    await audit(options, 'summary, open questions only');
    await options.getByLabel('Open questions only').uncheck();

    await line(popup).filter({ hasText: '1 profile question open · Answer now' }).waitFor();
    const reopened = await ext.openPage('popup.html');
    await line(reopened).filter({ hasText: '1 profile question open' }).waitFor();
    await reopened.close();
  });

  test('a question the panel adds is tagged "New" on the options page, and counted in the popup', async () => {
    const { variables } = await serverState(ext);
    await control(ext, '/state', 'PATCH', { variables: [...variables, PETS] });
    await options.getByRole('button', { name: 'Reload profile' }).click();
    await options.getByRole('status').filter({ hasText: 'Profile updated.' }).waitFor();
    const pets = options.getByRole('group', { name: PETS.text });
    expect(await pets.locator('.tag-new').textContent()).toBe('New');
    // The tag is read with the question.
    expect(await pets.getAttribute('aria-describedby')).toContain('-new');
    await line(popup).filter({ hasText: '2 profile questions open' }).waitFor();
    await audit(options, 'a new question');

    // Seen once, it is no longer new on the next visit.
    await pets.scrollIntoViewIfNeeded();
    const fresh = () => stored<{ fresh: unknown[] }>(ext, 'questions:new');
    await expect.poll(async () => (await fresh())?.fresh.length).toBe(0);
    await options.reload();
    await pets.waitFor();
    expect(await pets.locator('.tag-new').count()).toBe(0);
  });

  test('an answer the panel holds in a shape the page cannot show is said as held, and no longer counted open', async () => {
    const { values } = await serverState(ext);
    await control(ext, '/state', 'PATCH', { values: { ...values, PETS: { option_id: 51 } } });
    await options.getByRole('button', { name: 'Reload profile' }).click();
    await options.getByRole('status').filter({ hasText: 'Profile updated.' }).waitFor();
    const pets = options.getByRole('group', { name: PETS.text });
    const held = 'The panel holds an answer to this that this page cannot show. Saving an answer here replaces it.';
    await pets.getByText(held, { exact: true }).waitFor();
    // Read with the question, and counted as answered: only the household size is open now.
    expect(await pets.getAttribute('aria-describedby')).toContain('-held');
    await options.getByText('7 of 8 answered', { exact: true }).waitFor();
    await line(popup).filter({ hasText: '1 profile question open' }).waitFor();
  });
});
