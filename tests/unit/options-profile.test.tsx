import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { PROFILE_PAGE } from '../../components/options/ProfileQuestions';
import { ProfileSection } from '../../components/options/ProfileSection';
import { t } from '../../utils/i18n';
import { settings } from '../../utils/settings';
import { sendMessage, type Result } from '../../utils/messages';
import { appError } from '../../utils/errors';
import {
  draftDiscardedItem,
  profileDraftItem,
  profileItem,
  syncItem,
  type ProfileData,
} from '../../utils/storage-items';
import type { StoredValues, VariableDefinition } from '../../utils/types';
import { installI18n } from './i18n-setup';
import * as page from './options-fixtures';

vi.mock('../../utils/messages', () => ({ sendMessage: vi.fn() }));

type Handler = (data: any) => Result<unknown> | Promise<Result<unknown>> | undefined;
const send = sendMessage as unknown as page.SendMock;
const sent = (type: string) => send.mock.calls.filter(([t]) => t === type).map(([, data]) => data);
const { option, question } = page;

// Read-only first on purpose: the page must still list writable ones first.
const DEFINITIONS: VariableDefinition[] = [
  question(6, 'COUNTRY', 'Country of residence', 'text', false),
  question(7, 'SOURCE', 'How did you join?', 'radio', false, [option(71, 'Website'), option(72, 'A friend')]),
  question(1, 'FIRST_NAME', 'What is your first name?', 'text', true),
  question(2, 'BIRTH_DATE', 'What is your date of birth?', 'date', true),
  question(3, 'HOBBIES', 'Which hobbies do you enjoy?', 'checkbox', true, [
    option(31, 'Reading'),
    option(32, 'Cooking'),
    option(35, 'None of these', true),
  ]),
  question(4, 'EMPLOYMENT', 'Employment status', 'radio', true, [option(41, 'Full-time'), option(42, 'Student')]),
  question(5, 'POSTAL_CODE', 'POSTAL_CODE', 'zipcode', true),
  question(8, 'EDUCATION', 'Highest education', 'select', true, [option(81, 'Secondary'), option(82, 'Bachelor')]),
];
const STORED: StoredValues = {
  FIRST_NAME: 'Jordan',
  BIRTH_DATE: '1988-04-17',
  HOBBIES: [31],
  EMPLOYMENT: 41,
  COUNTRY: 'US',
  SOURCE: 72,
};

let container: HTMLElement;
let handlers: Record<string, Handler>;

/** The profile section, once it has read the profile and the draft. */
const mount = async () => {
  await page.mountInto(container, <ProfileSection />);
  await page.profileRead(container);
};
const unmount = () => page.unmountFrom(container);
const q = <T extends Element = HTMLElement>(selector: string) => container.querySelector<T & HTMLElement>(selector);
const byLabel = (text: string) => page.byLabel(container, text);
const button = (name: string) => page.button(container, name);
const group = (legend: string) => page.group(container, legend);
const choice = (legend: string, text: string) => page.choice(container, legend, text);
const { click, type } = page;

const fieldOf = (input: Element) => input.closest('.field') as HTMLElement;
const saveBar = () => q('.save-bar')!;
const checked = (legend: string) =>
  [...group(legend).querySelectorAll<HTMLInputElement>('input')]
    .filter((i) => i.checked)
    .map((i) => i.labels?.[0]?.textContent?.trim());

beforeEach(async () => {
  fakeBrowser.reset();
  container = page.newContainer();
  await profileItem.setValue({ data: { definitions: DEFINITIONS, values: STORED }, fetchedAt: Date.now() });
  handlers = {};
  send.mockReset();
  await page.asConnected();
  send.mockImplementation(
    async (type, data) => handlers[type]?.(data) ?? page.draftMessage(type, data) ?? { ok: true, data: null },
  );
});

afterEach(() => page.dropContainer(container));

describe('profile editor', () => {
  it('lists writable questions first, labelled by their text, humanising a bare name, never showing raw names', async () => {
    await mount();
    const labels = [...container.querySelectorAll('label[for^="var-"]:not([for*="-opt-"]), legend, dt')].map((e) =>
      e.firstChild?.textContent?.trim(),
    );
    expect(labels).toEqual([
      'What is your first name?',
      'What is your date of birth?',
      'Which hobbies do you enjoy?',
      'Employment status',
      'Postal code',
      'Highest education',
      'Country of residence',
      'How did you join?',
    ]);
    // Internal names stay out of the panelist's view.
    for (const name of ['FIRST_NAME', 'BIRTH_DATE', 'POSTAL_CODE', 'COUNTRY'])
      expect(container.textContent).not.toContain(name);
    expect(sent('refreshProfile')).toEqual([{ force: false }]);
  });

  it('a date the panel stores with a time (Laravel’s date cast) shows as its day, and counts as unchanged', async () => {
    await profileItem.setValue({
      data: { definitions: DEFINITIONS, values: { ...STORED, BIRTH_DATE: '1988-04-17T00:00:00.000000Z' } },
      fetchedAt: Date.now(),
    });
    await mount();
    expect(byLabel('What is your date of birth?')).toMatchObject({ type: 'date', value: '1988-04-17' });
    await type(byLabel('What is your first name?'), 'Sam');
    await click(button('Save changes'));
    expect(sent('saveValues')).toEqual([{ session: page.PAGE_SESSION, values: { FIRST_NAME: 'Sam' } }]);
  });

  it('a checked answer the panel no longer offers is shown, named as such, and can be unticked so the rest saves', async () => {
    await profileItem.setValue({
      data: { definitions: DEFINITIONS, values: { ...STORED, HOBBIES: [31, 33] } },
      fetchedAt: Date.now(),
    });
    await mount();
    // Named as what it is, never by a number the panelist never saw ("Option 33").
    const retired = choice('Which hobbies do you enjoy?', 'A choice no longer offered');
    expect(retired.checked).toBe(true);
    expect(retired.labels?.[0]?.textContent).toBe('A choice no longer offered (untick it to save your answer)');
    await click(retired);
    await click(choice('Which hobbies do you enjoy?', 'Cooking'));
    await click(button('Save changes'));
    expect(sent('saveValues')).toEqual([{ session: page.PAGE_SESSION, values: { HOBBIES: [31, 32] } }]);
  });

  it('ticking another option while one no longer offered is still held: the refusal names it', async () => {
    await profileItem.setValue({
      data: { definitions: DEFINITIONS, values: { ...STORED, HOBBIES: [31, 33] } },
      fetchedAt: Date.now(),
    });
    await mount();
    await click(choice('Which hobbies do you enjoy?', 'Cooking'));
    await click(button('Save changes'));
    expect(sent('saveValues')).toEqual([]);
    expect(group('Which hobbies do you enjoy?').querySelector('.field-error')?.textContent).toBe(
      'A choice no longer offered is still ticked: untick it, then save.',
    );
  });

  it('a checkbox answer the panel holds by its options’ names is shown ticked, and ticking another keeps them', async () => {
    await profileItem.setValue({
      data: { definitions: DEFINITIONS, values: { ...STORED, HOBBIES: ['COOKING'] } },
      fetchedAt: Date.now(),
    });
    await mount();
    expect(checked('Which hobbies do you enjoy?')).toEqual(['Cooking']);
    await click(choice('Which hobbies do you enjoy?', 'Reading'));
    await click(button('Save changes'));
    expect(sent('saveValues')).toEqual([{ session: page.PAGE_SESSION, values: { HOBBIES: [32, 31] } }]);
  });

  it('a checkbox answer of several option names shows each ticked; one no longer offered is listed by the panel’s word', async () => {
    await profileItem.setValue({
      data: { definitions: DEFINITIONS, values: { ...STORED, HOBBIES: ['reading', 'COOKING', 'KNITTING'] } },
      fetchedAt: Date.now(),
    });
    await mount();
    expect(checked('Which hobbies do you enjoy?')).toEqual([
      'Reading',
      'Cooking',
      'KNITTING (no longer offered: untick it to save your answer)',
    ]);
    await click(choice('Which hobbies do you enjoy?', 'KNITTING'));
    await click(button('Save changes'));
    expect(sent('saveValues')).toEqual([{ session: page.PAGE_SESSION, values: { HOBBIES: [31, 32] } }]);
  });

  it('a single-choice answer the panel holds by the option’s name is shown chosen, and can be changed', async () => {
    await profileItem.setValue({
      data: { definitions: DEFINITIONS, values: { ...STORED, EMPLOYMENT: 'student' } },
      fetchedAt: Date.now(),
    });
    await mount();
    expect(checked('Employment status')).toEqual(['Student']);
    await click(choice('Employment status', 'Full-time'));
    await click(button('Save changes'));
    expect(sent('saveValues')).toEqual([{ session: page.PAGE_SESSION, values: { EMPLOYMENT: 41 } }]);
  });

  it('a single-choice answer by an option no longer offered is listed, chosen, and can be changed or removed', async () => {
    await profileItem.setValue({
      data: { definitions: DEFINITIONS, values: { ...STORED, EMPLOYMENT: 49 } },
      fetchedAt: Date.now(),
    });
    await mount();
    const retired = choice('Employment status', 'A choice no longer offered');
    expect(retired.checked).toBe(true);
    expect(retired.type).toBe('radio');
    expect(retired.labels?.[0]?.textContent).toBe('A choice no longer offered (choose another to change your answer)');
    page.button(group('Employment status'), 'Remove answer Employment status');
    await click(choice('Employment status', 'Student'));
    expect(checked('Employment status')).toEqual(['Student']);
    await click(button('Save changes'));
    expect(sent('saveValues')).toEqual([{ session: page.PAGE_SESSION, values: { EMPLOYMENT: 42 } }]);
  });

  it('in German: the option no longer offered and the refusal naming it', async () => {
    installI18n('de');
    await profileItem.setValue({
      data: { definitions: DEFINITIONS, values: { ...STORED, EMPLOYMENT: 49, HOBBIES: [31, 33] } },
      fetchedAt: Date.now(),
    });
    await mount();
    expect(choice('Employment status', 'Eine nicht mehr angebotene Antwort').labels?.[0]?.textContent).toBe(
      'Eine nicht mehr angebotene Antwort (wählen Sie eine andere, um sie zu ändern)',
    );
    await click(choice('Which hobbies do you enjoy?', 'Cooking'));
    await click(button('Änderungen speichern'));
    expect(group('Which hobbies do you enjoy?').querySelector('.field-error')?.textContent).toBe(
      'Eine nicht mehr angebotene Antwort ist noch angehakt: Entfernen Sie das Häkchen und speichern Sie dann.',
    );
    installI18n('en');
  });

  it('edits each type with its own control', async () => {
    await mount();
    expect(byLabel('What is your first name?')).toMatchObject({ type: 'text', value: 'Jordan' });
    expect(byLabel('What is your date of birth?')).toMatchObject({ type: 'date', value: '1988-04-17' });
    // An unknown type without options is edited as text.
    expect(byLabel('Postal code')).toMatchObject({ type: 'text', value: '' });
    expect(group('Which hobbies do you enjoy?').querySelectorAll('input[type=checkbox]')).toHaveLength(3);
    expect(checked('Which hobbies do you enjoy?')).toEqual(['Reading']);
    // Any choice type other than checkbox is a radio group.
    expect(group('Employment status').querySelectorAll('input[type=radio]')).toHaveLength(2);
    expect(checked('Employment status')).toEqual(['Full-time']);
    expect(group('Highest education').querySelectorAll('input[type=radio]')).toHaveLength(2);
  });

  it('shows read-only values in words (option text, a country by its name) with the reason, without editors', async () => {
    await mount();
    const readOnly = [...container.querySelectorAll('.read-only')].map((e) => e.querySelector('dd')?.textContent);
    expect(readOnly).toEqual([
      'United StatesSet by your panel; you cannot change it here',
      'A friendSet by your panel; you cannot change it here',
    ]);
    expect(container.querySelector('.read-only input')).toBeNull();
  });

  it('applies the exclusive rule in the checkbox group', async () => {
    await mount();
    await click(choice('Which hobbies do you enjoy?', 'Cooking'));
    expect(checked('Which hobbies do you enjoy?')).toEqual(['Reading', 'Cooking']);
    await click(choice('Which hobbies do you enjoy?', 'None of these'));
    expect(checked('Which hobbies do you enjoy?')).toEqual(['None of these (clears the others)']);
    await click(choice('Which hobbies do you enjoy?', 'Reading'));
    expect(checked('Which hobbies do you enjoy?')).toEqual(['Reading']);
  });

  it('tracks unsaved changes and saves only the changed names in one call', async () => {
    await mount();
    // With nothing to save there is no save bar: only its live regions, empty.
    expect(container.querySelector('.save-bar')).toBeNull();
    expect(container.querySelector('.save-bar-idle [role=status]')?.textContent).toBe('');
    expect(container.querySelector('.save-bar-idle button')).toBeNull();

    await type(byLabel('What is your first name?'), 'Sam');
    await type(byLabel('What is your date of birth?'), '1990-01-02');
    await click(choice('Employment status', 'Student'));
    await click(choice('Highest education', 'Bachelor'));
    await type(byLabel('Postal code'), '12345');
    await click(choice('Which hobbies do you enjoy?', 'Cooking'));
    expect(container.textContent).toContain('6 unsaved changes');

    // Editing back to the stored value is no change.
    await type(byLabel('What is your first name?'), 'Jordan');
    expect(container.textContent).toContain('5 unsaved changes');
    await type(byLabel('What is your first name?'), 'Sam');

    handlers.saveValues = ({ values }) => {
      void profileItem.setValue({
        data: { definitions: DEFINITIONS, values: { ...STORED, ...values } },
        fetchedAt: Date.now(),
      });
      return { ok: true, data: { definitions: DEFINITIONS, values: { ...STORED, ...values } } satisfies ProfileData };
    };
    await click(button('Save changes'));
    expect(sent('saveValues')).toEqual([
      {
        session: page.PAGE_SESSION,
        values: {
          FIRST_NAME: 'Sam',
          BIRTH_DATE: '1990-01-02',
          EMPLOYMENT: 42,
          EDUCATION: 82,
          POSTAL_CODE: '12345',
          HOBBIES: [31, 32],
        },
      },
    ]);
    expect(container.textContent).not.toContain('unsaved change');
    // The confirmation is in the sticky bar, where Save was pressed.
    expect(saveBar().querySelector('[role=status]')?.textContent).toBe('Saved 6 changes.');
    expect(await profileDraftItem.getValue()).toEqual({});
  });

  it('discards the draft', async () => {
    await mount();
    await type(byLabel('What is your first name?'), 'Sam');
    await click(button('Discard changes'));
    expect(byLabel('What is your first name?').value).toBe('Jordan');
    expect(await profileDraftItem.getValue()).toEqual({});
  });

  it('keeps what was typed on screen when the background cannot take the edit, and sends it with the next one', async () => {
    let refuse = true;
    handlers.editDraft = (data) =>
      refuse
        ? { ok: false, error: { kind: 'unexpected', message: 'Storage is full.' } }
        : page.draftMessage('editDraft', data);
    await mount();
    await type(byLabel('What is your first name?'), 'Sam');
    await page.settle();
    expect(byLabel('What is your first name?').value).toBe('Sam');
    expect(saveBar().textContent).toContain('1 unsaved change');
    expect(await profileDraftItem.getValue()).toEqual({});
    refuse = false;
    await click(choice('Which hobbies do you enjoy?', 'None of these'));
    expect(await profileDraftItem.getValue()).toEqual({ FIRST_NAME: 'Sam', HOBBIES: [35] });
    expect(byLabel('What is your first name?').value).toBe('Sam');
  });

  it('sends each edit under the session it was typed in', async () => {
    await mount();
    await type(byLabel('What is your first name?'), 'Sam');
    expect(sent('editDraft').at(-1)).toEqual({ session: page.PAGE_SESSION, changes: { FIRST_NAME: 'Sam' } });
  });

  it('keeps the draft in storage so edits survive closing and reopening the page', async () => {
    await mount();
    await type(byLabel('What is your first name?'), 'Sam');
    await click(choice('Which hobbies do you enjoy?', 'None of these'));
    await unmount();
    expect(await profileDraftItem.getValue()).toEqual({ FIRST_NAME: 'Sam', HOBBIES: [35] });

    await mount();
    expect(byLabel('What is your first name?').value).toBe('Sam');
    expect(checked('Which hobbies do you enjoy?')).toEqual(['None of these (clears the others)']);
    expect(container.textContent).toContain('2 unsaved changes');
  });

  it('refuses invalid input next to the field and sends nothing', async () => {
    await profileDraftItem.setValue({ BIRTH_DATE: '1990-02-30', FIRST_NAME: 'x'.repeat(1001), EMPLOYMENT: 99 });
    await mount();
    await click(button('Save changes'));
    expect(sent('saveValues')).toEqual([]);
    expect(fieldOf(byLabel('What is your date of birth?')).querySelector('.field-error')?.textContent).toMatch(
      /real date/,
    );
    expect(fieldOf(byLabel('What is your first name?')).querySelector('.field-error')?.textContent).toMatch(
      /1,000 characters/,
    );
    expect(group('Employment status').querySelector('.field-error')?.textContent).toMatch(/options offered/);
    expect(byLabel('What is your date of birth?').getAttribute('aria-invalid')).toBe('true');
    expect(q('[role=alert]')?.textContent).toBe('Nothing was saved: 3 answers need attention.');

    // Correcting a field clears its message.
    await type(byLabel('What is your date of birth?'), '1990-02-28');
    expect(fieldOf(byLabel('What is your date of birth?')).querySelector('.field-error')).toBeNull();
  });

  it('shows a server refusal next to the field it concerns and keeps the edits', async () => {
    handlers.saveValues = () => ({
      ok: false,
      error: { kind: 'rejected', message: 'Variable POSTAL_CODE is not writable', status: 422, field: 'POSTAL_CODE' },
    });
    await mount();
    await type(byLabel('Postal code'), '12345');
    await type(byLabel('What is your first name?'), 'Sam');
    await click(button('Save changes'));
    expect(sent('saveValues')).toHaveLength(1);
    expect(fieldOf(byLabel('Postal code')).querySelector('.field-error')?.textContent).toBe(
      'Variable POSTAL_CODE is not writable',
    );
    // Said once, beside the question; the save bar points to it rather than repeating it.
    expect(saveBar().querySelector('[role=alert]')?.textContent).toBe(
      'Nothing was saved. See the note under “Postal code”.',
    );
    expect(container.textContent?.split('Variable POSTAL_CODE is not writable')).toHaveLength(2);
    expect(byLabel('Postal code').value).toBe('12345');
    expect(byLabel('What is your first name?').value).toBe('Sam');
    expect(await profileDraftItem.getValue()).toEqual({ POSTAL_CODE: '12345', FIRST_NAME: 'Sam' });
    expect(container.textContent).toContain('2 unsaved changes');
  });

  it('shows a failure without a field as an alert with what to do next', async () => {
    handlers.saveValues = () => ({ ok: false, error: { kind: 'network', message: 'The panel could not be reached.' } });
    await mount();
    await type(byLabel('What is your first name?'), 'Sam');
    await click(button('Save changes'));
    expect(q('[role=alert]')?.textContent).toMatch(/could not be reached\. Check your internet connection/);
    expect(byLabel('What is your first name?').value).toBe('Sam');
  });

  it('a save that fails after a reload is not shown beside the reload’s old “Profile updated.”', async () => {
    handlers.saveValues = () => ({ ok: false, error: { kind: 'network', message: 'The panel could not be reached.' } });
    await mount();
    await click(button('Reload profile'));
    await vi.waitFor(() => expect(container.textContent).toContain('Profile updated.'), { timeout: 10_000 });
    await type(byLabel('What is your first name?'), 'Sam');
    await click(button('Save changes'));
    await vi.waitFor(() => expect(q('[role=alert]')?.textContent).toMatch(/could not be reached/), { timeout: 10_000 });
    // The section says what happened last: the failed save, not also an old success.
    expect(container.textContent).not.toContain('Profile updated.');
  });

  it('a save the background refuses because another account connected meanwhile says so, and keeps the answers typed', async () => {
    handlers.saveValues = () => ({
      ok: false,
      error: {
        kind: 'invalid_input',
        message:
          'Nothing was saved: another account was connected after these answers were typed. They are still here: check that they are this account’s, then save again.',
      },
    });
    await mount();
    await type(byLabel('What is your first name?'), 'Sam');
    await click(button('Save changes'));
    expect(sent('saveValues')).toEqual([{ session: page.PAGE_SESSION, values: { FIRST_NAME: 'Sam' } }]);
    expect(q('[role=alert]')?.textContent).toMatch(/Nothing was saved: another account was connected/);
    expect(byLabel('What is your first name?').value).toBe('Sam');
    expect(await profileDraftItem.getValue()).toEqual({ FIRST_NAME: 'Sam' });
  });

  it('removes an answer through Save: "Remove answer", an emptied field, unticking every option', async () => {
    const server = { ...STORED };
    handlers.deleteValue = ({ name }) => {
      delete server[name];
      void profileItem.setValue({ data: { definitions: DEFINITIONS, values: { ...server } }, fetchedAt: Date.now() });
      return { ok: true, data: null };
    };
    handlers.saveValues = ({ values }) => {
      Object.assign(server, values);
      void profileItem.setValue({ data: { definitions: DEFINITIONS, values: { ...server } }, fetchedAt: Date.now() });
      return { ok: true, data: null };
    };
    await mount();
    // Only answered writable questions offer it, in the same words as everywhere on the page.
    expect(container.querySelectorAll('.field .link-button')).toHaveLength(4);
    await click(button('Remove answer What is your date of birth?'));
    // Staged only: nothing is sent to the panel, the draft alone records it.
    expect(send.mock.calls.filter(([t]) => t !== 'refreshProfile' && t !== 'editDraft')).toEqual([]);
    expect(byLabel('What is your date of birth?').value).toBe('');
    expect(document.activeElement).toBe(byLabel('What is your date of birth?'));
    expect(fieldOf(byLabel('What is your date of birth?')).querySelector('.tag')?.textContent).toBe('Will be removed');

    await type(byLabel('What is your first name?'), '');
    await click(choice('Which hobbies do you enjoy?', 'Reading'));
    await type(byLabel('Postal code'), '10115');
    expect(saveBar().textContent).toContain('4 unsaved changes');
    // An emptied answer is not refused: it is a removal.
    await click(button('Save changes'));
    expect(q('.field-error')).toBeNull();
    expect(send.mock.calls.filter(([t]) => t === 'saveValues' || t === 'deleteValue')).toEqual([
      ['saveValues', { session: page.PAGE_SESSION, values: { POSTAL_CODE: '10115' } }],
      ['deleteValue', { session: page.PAGE_SESSION, name: 'BIRTH_DATE' }],
      ['deleteValue', { session: page.PAGE_SESSION, name: 'FIRST_NAME' }],
      ['deleteValue', { session: page.PAGE_SESSION, name: 'HOBBIES' }],
    ]);
    expect(saveBar().querySelector('[role=status]')?.textContent).toBe('Saved 4 changes.');
    expect(await profileDraftItem.getValue()).toEqual({});
    expect(server).toEqual({ EMPLOYMENT: 41, COUNTRY: 'US', SOURCE: 72, POSTAL_CODE: '10115' });
  });

  it('keeps a removal that failed in the draft, beside its question, after what was saved', async () => {
    handlers.deleteValue = () => ({
      ok: false,
      error: { kind: 'not_allowed', message: 'Your panel does not let you remove this answer.', status: 403 },
    });
    await mount();
    await type(byLabel('What is your first name?'), 'Sam');
    await click(button('Remove answer Employment status'));
    await click(button('Save changes'));
    expect(fieldOf(group('Employment status')).querySelector('.field-error')?.textContent).toBe(
      'Your panel does not let you remove this answer.',
    );
    expect(saveBar().querySelector('[role=alert]')?.textContent).toBe(
      'Saved 1 change. Your answer to “Employment status” was not removed. See the note under it.',
    );
    expect(await profileDraftItem.getValue()).toEqual({ EMPLOYMENT: '' });
    // Not allowed is not a refused key: nothing says to reconnect.
    expect(container.textContent).not.toMatch(/reconnect/i);
  });

  it('renders a long questionnaire a page at a time, and reveals a hidden question with a problem', async () => {
    const many = Array.from({ length: 230 }, (_, i) =>
      page.question(1000 + i, `Q_${i}`, `Question ${i + 1}?`, 'text', i < 200),
    );
    await profileItem.setValue({ data: { definitions: many, values: {} }, fetchedAt: Date.now() });
    await profileDraftItem.setValue({ Q_150: 'x'.repeat(1001) });
    await mount();
    const fields = () =>
      [...container.querySelectorAll('label, dt')].filter((e) => /^Question \d+\?/.test(e.textContent?.trim() ?? ''))
        .length;
    const inputs = () => container.querySelectorAll('form input').length;
    expect(inputs()).toBe(PROFILE_PAGE);
    expect(fields()).toBe(PROFILE_PAGE);

    await page.click(page.button(container, 'Save changes'));
    expect(byLabel('Question 151?').getAttribute('aria-invalid')).toBe('true');
    expect(inputs()).toBe(151);

    const more = page.button(container, 'Show 79 more questions');
    more.focus();
    await page.click(more);
    expect(fields()).toBe(230);
    expect(inputs()).toBe(200);
    expect([...container.querySelectorAll('button')].some((b) => /more questions/.test(b.textContent ?? ''))).toBe(
      false,
    );
    // The last page: the button is gone, and focus goes on to the first question it added, not to the page's body.
    await vi.waitFor(() => expect(document.activeElement).toBe(byLabel('Question 152?')));
  });
});

describe('failures and notices', () => {
  it("shows a Laravel-style 422 beside each field, the panel's message for the section, keeps every edit, focuses the first", async () => {
    handlers.saveValues = () => ({
      ok: false,
      error: {
        kind: 'rejected',
        status: 422,
        message: 'The given data was invalid.',
        fields: {
          BIRTH_DATE: 'The birth date must be a date before today.',
          POSTAL_CODE: 'The postal code format is invalid.',
          NICKNAME: 'Unknown.',
        },
      },
    });
    const scrolled: Element[] = [];
    const scrollIntoView = vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(function (
      this: Element,
    ) {
      scrolled.push(this);
    });
    await mount();
    await type(byLabel('What is your first name?'), 'Sam');
    await type(byLabel('What is your date of birth?'), '2030-01-01');
    await type(byLabel('Postal code'), 'ABC');
    await click(button('Save changes'));
    await page.nextFrame();
    expect(fieldOf(byLabel('What is your date of birth?')).querySelector('.field-error')?.textContent).toBe(
      'The birth date must be a date before today.',
    );
    expect(fieldOf(byLabel('Postal code')).querySelector('.field-error')?.textContent).toBe(
      'The postal code format is invalid.',
    );
    expect(fieldOf(byLabel('What is your first name?')).querySelector('.field-error')).toBeNull();
    expect(byLabel('Postal code').getAttribute('aria-invalid')).toBe('true');
    expect(saveBar().querySelector('[role=alert]')?.textContent).toBe(
      'Nothing was saved. The given data was invalid. Unknown. Correct the marked answers, then save again.',
    );
    expect([
      byLabel('What is your first name?').value,
      byLabel('What is your date of birth?').value,
      byLabel('Postal code').value,
    ]).toEqual(['Sam', '2030-01-01', 'ABC']);
    expect(await profileDraftItem.getValue()).toEqual({
      FIRST_NAME: 'Sam',
      BIRTH_DATE: '2030-01-01',
      POSTAL_CODE: 'ABC',
    });
    // Focus on the first problem, with its whole question brought into view.
    expect(document.activeElement).toBe(byLabel('What is your date of birth?'));
    expect(scrolled.at(-1)).toBe(fieldOf(byLabel('What is your date of birth?')));
    scrollIntoView.mockRestore();
  });

  it('shows a failure no question explains in the save bar, and focuses it', async () => {
    handlers.saveValues = () => ({
      ok: false,
      error: { kind: 'not_allowed', message: 'Profile changes are closed during the survey week.', status: 403 },
    });
    await mount();
    await type(byLabel('What is your first name?'), 'Sam');
    await click(button('Save changes'));
    await page.nextFrame();
    const alert = saveBar().querySelector('[role=alert]');
    expect(alert?.textContent).toBe(
      'Profile changes are closed during the survey week. If you think this should be allowed, contact your panel’s support. Your answers are kept here.',
    );
    expect(document.activeElement).toBe(alert);
    expect(byLabel('What is your first name?').value).toBe('Sam');
  });

  it('a refusal without the panel’s own words says so in plain words; the HTTP status only under “Details for support”', async () => {
    handlers.saveValues = () => ({
      ok: false,
      error: { kind: 'not_allowed', message: t('httpNotAllowed'), status: 403, endpoint: '/v1/panel/variables' },
    });
    await mount();
    await type(byLabel('What is your first name?'), 'Sam');
    await click(button('Save changes'));
    const alert = saveBar().querySelector('[role=alert]')!;
    expect(alert.textContent).toBe(
      `${settings.panelName} does not allow this. If you think this should be allowed, contact your panel’s support. Your answers are kept here.`,
    );
    expect(alert.textContent).not.toMatch(/HTTP|403/);
    const support = saveBar().querySelector<HTMLDetailsElement>('details.support')!;
    expect(support.querySelector('summary')?.textContent).toBe('Details for support');
    expect(support.open).toBe(false);
    expect(support.querySelector('.support-text')?.textContent).toContain('HTTP 403 /v1/panel/variables');
  });

  it('a panel with a problem (HTTP 500) says the typed answers are kept, right above Save', async () => {
    handlers.saveValues = () => ({
      ok: false,
      error: {
        kind: 'server',
        message: 'The panel had a problem (HTTP 500).',
        status: 500,
        endpoint: '/v1/panel/variables',
      },
    });
    await mount();
    await type(byLabel('What is your first name?'), 'Sam');
    await click(button('Save changes'));
    expect(saveBar().querySelector('[role=alert]')?.textContent).toBe(
      `${settings.panelName} had a problem. Try again later. Your answers are kept here.`,
    );
    expect(byLabel('What is your first name?').value).toBe('Sam');
  });

  it('says how many unsaved edits connecting another account discarded, until dismissed', async () => {
    await draftDiscardedItem.setValue({ count: 3, at: Date.now() });
    await mount();
    // The notice comes with its own read.
    const notice = await vi.waitFor(
      () => {
        expect(q('.notice')).not.toBeNull();
        return q('.notice')!;
      },
      { timeout: 10_000 },
    );
    expect(notice.textContent).toContain(
      '3 unsaved profile changes were discarded: they were made for the account connected before.',
    );
    await click(button('Dismiss this notice'));
    expect(q('.notice')).toBeNull();
    expect(document.activeElement).toBe(q('#profile-heading'));
    expect(await draftDiscardedItem.getValue()).toBeNull();
  });

  it('has no notice without discarded edits', async () => {
    await mount();
    expect(q('.notice')).toBeNull();
  });
});

describe('answers the panel sent that could not be read', () => {
  it('say the panel’s answer could not be read, never "No answer stored" nor a count of answers', async () => {
    await profileItem.setValue(null);
    const endpoint = '/v1/panel/variables/data';
    const refused = appError('unexpected', `Unexpected response from ${endpoint}: data.1.name: missing.`, { endpoint });
    const idle = { loading: false, error: null, attemptedAt: 0 };
    await syncItem.setValue({ rewards: idle, history: idle, profile: { ...idle, error: refused } });
    await mount();
    const section = q('#profile')!;
    expect(section.querySelector('[role=alert]')?.textContent).toContain(t('errPanelUnreadable', settings.panelName));
    expect(section.textContent).toContain('Your profile has not been loaded yet.');
    expect(section.textContent).not.toContain('No answer stored');
    expect(section.textContent).not.toMatch(/\d+ of \d+ answered/);
  });
});

describe('an answer the panel holds in a shape this page cannot show', () => {
  it('is said as held, never "No answer stored" nor open; the question that can be answered says what saving does', async () => {
    const { SOURCE: _source, ...rest } = STORED;
    const data: ProfileData = { definitions: DEFINITIONS, values: rest, unreadable: ['SOURCE', 'POSTAL_CODE'] };
    await profileItem.setValue({ data, fetchedAt: Date.now() });
    await mount();
    const source = [...container.querySelectorAll('.read-only')].find((f) =>
      f.textContent?.includes('How did you join?'),
    )!;
    expect(source.querySelector('.value')!.textContent).toBe('The panel holds an answer this page cannot show');
    const postal = byLabel('Postal code');
    const described = (postal.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent);
    expect(described).toContain(
      'The panel holds an answer to this that this page cannot show. Saving an answer here replaces it.',
    );
    // Six writable questions: only EDUCATION is without an answer.
    expect(container.textContent).toContain('5 of 6 answered');
  });
});
