/**
 * A question the panel names only by its machine name (POSTAL_CODE) is labelled
 * in the page's language, never "Postal code" on a German, Arabic or Japanese page; a name with no
 * word of its own keeps the panel's text; the save message and the read-only list say the same.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ProfileSection } from '../../components/options/ProfileSection';
import { sendMessage, type Result } from '../../utils/messages';
import { profileItem } from '../../utils/storage-items';
import type { StoredValues, VariableDefinition } from '../../utils/types';
import { installI18n, missedMessages } from './i18n-setup';
import * as page from './options-fixtures';

vi.mock('../../utils/messages', () => ({ sendMessage: vi.fn() }));

const send = sendMessage as unknown as page.SendMock;
const { question } = page;

const DEFINITIONS: VariableDefinition[] = [
  question(5, 'POSTAL_CODE', 'POSTAL_CODE', 'zipcode', true),
  question(9, 'dateOfBirth', '', 'date', true),
  question(10, 'PET_OWNER', 'PET_OWNER', 'text', true),
  question(6, 'PANELIST_COUNTRY', 'PANELIST_COUNTRY', 'text', false),
];
const STORED: StoredValues = { PANELIST_COUNTRY: 'DE' };

let container: HTMLElement;

/** The profile section, once it has read the profile and the draft. */
const mount = async () => {
  await page.mountInto(container, <ProfileSection />);
  await page.profileRead(container);
};
const labels = () =>
  [...container.querySelectorAll('label[for^="var-"]:not([for*="-opt-"]), legend, dt')].map((e) =>
    e.firstChild?.textContent?.trim(),
  );

beforeEach(async () => {
  fakeBrowser.reset();
  container = page.newContainer();
  await profileItem.setValue({ data: { definitions: DEFINITIONS, values: STORED }, fetchedAt: Date.now() });
  send.mockReset();
  await page.asConnected();
  send.mockImplementation(
    async (type, data): Promise<Result<unknown>> => (await page.draftMessage(type, data)) ?? { ok: true, data: null },
  );
});

afterEach(() => page.dropContainer(container));

describe('labels made from machine names', () => {
  it('English: in words', async () => {
    await mount();
    expect(labels()).toEqual(['Postal code', 'Date of birth', 'Pet owner', 'Country']);
  });

  it.each([
    ['de', ['Postleitzahl', 'Geburtsdatum', 'PET_OWNER', 'Land']],
    ['ar', ['الرمز البريدي', 'تاريخ الميلاد', 'PET_OWNER', 'البلد']],
    ['ja', ['郵便番号', '生年月日', 'PET_OWNER', '国']],
  ])('%s: in the page’s language, or as the panel wrote it; never in English', async (locale, expected) => {
    installI18n(locale);
    await mount();
    expect(labels()).toEqual(expected);
    expect(container.textContent).not.toMatch(/Postal code|Date of birth|Pet owner|Country/);
    // Every word came from the language's own file.
    expect(missedMessages()).toEqual([]);
  });

  it('German: a refusal names the question as its label does', async () => {
    installI18n('de');
    send.mockImplementation(async (type, data): Promise<Result<unknown>> => {
      if (type === 'saveValues')
        return { ok: false, error: { kind: 'rejected', status: 422, message: 'Ungültig.', field: 'POSTAL_CODE' } };
      return (await page.draftMessage(type, data)) ?? { ok: true, data: null };
    });
    await mount();
    await page.type(page.byLabel(container, 'Postleitzahl'), '1');
    await page.click(page.button(container, 'Änderungen speichern'));
    expect(container.querySelector('.save-bar [role=alert]')?.textContent).toContain('„Postleitzahl“');
  });
});
