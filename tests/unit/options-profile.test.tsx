import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { PROFILE_PAGE, ProfileSection } from '../../components/options/ProfileSection';
import { sendMessage, type Result } from '../../utils/messages';
import { profileDraftItem, profileItem, type ProfileData } from '../../utils/storage-items';
import type { StoredValues, VariableDefinition } from '../../utils/types';
import * as page from './options-fixtures';

vi.mock('../../utils/messages', () => ({ sendMessage: vi.fn() }));

type Handler = (data: any) => Result<unknown>;
const send = sendMessage as unknown as page.SendMock;
const sent = (type: string) => send.mock.calls.filter(([t]) => t === type).map(([, data]) => data);
const { option, question } = page;

// Read-only first on purpose: the page must still list writable ones first.
const DEFINITIONS: VariableDefinition[] = [
  question(6, 'COUNTRY', 'Country of residence', 'text', false),
  question(7, 'SOURCE', 'How did you join?', 'radio', false, [option(71, 'Website'), option(72, 'A friend')]),
  question(1, 'FIRST_NAME', 'What is your first name?', 'text', true),
  question(2, 'BIRTH_DATE', 'What is your date of birth?', 'date', true),
  question(3, 'HOBBIES', 'Which hobbies do you enjoy?', 'checkbox', true, [option(31, 'Reading'), option(32, 'Cooking'), option(35, 'None of these', true)]),
  question(4, 'EMPLOYMENT', 'Employment status', 'radio', true, [option(41, 'Full-time'), option(42, 'Student')]),
  question(5, 'POSTAL_CODE', 'POSTAL_CODE', 'zipcode', true),
  question(8, 'EDUCATION', 'Highest education', 'select', true, [option(81, 'Secondary'), option(82, 'Bachelor')]),
];
const STORED: StoredValues = { FIRST_NAME: 'Jordan', BIRTH_DATE: '1988-04-17', HOBBIES: [31], EMPLOYMENT: 41, COUNTRY: 'US', SOURCE: 72 };

let container: HTMLElement;
let handlers: Record<string, Handler>;

const mount = () => page.mountInto(container, <ProfileSection />);
const unmount = () => page.unmountFrom(container);
const q = <T extends Element = HTMLElement>(selector: string) => container.querySelector<T & HTMLElement>(selector);
const byLabel = (text: string) => page.byLabel(container, text);
const button = (name: string) => page.button(container, name);
const group = (legend: string) => page.group(container, legend);
const choice = (legend: string, text: string) => page.choice(container, legend, text);
const { click, type } = page;

const fieldOf = (input: Element) => input.closest('.field') as HTMLElement;
const checked = (legend: string) =>
  [...group(legend).querySelectorAll<HTMLInputElement>('input')].filter((i) => i.checked).map((i) => i.labels?.[0]?.textContent?.trim());

beforeEach(async () => {
  fakeBrowser.reset();
  container = page.newContainer();
  await profileItem.setValue({ data: { definitions: DEFINITIONS, values: STORED }, fetchedAt: Date.now() });
  handlers = {};
  send.mockReset();
  send.mockImplementation(async (type, data) => handlers[type]?.(data) ?? { ok: true, data: null });
});

afterEach(() => page.dropContainer(container));

describe('profile editor', () => {
  it('lists writable questions first, labelled by their text with the name where it differs', async () => {
    await mount();
    const labels = [...container.querySelectorAll('label[for^="var-"]:not([for*="-opt-"]), legend, dt')].map((e) =>
      e.firstChild?.textContent?.trim(),
    );
    expect(labels).toEqual([
      'What is your first name?',
      'What is your date of birth?',
      'Which hobbies do you enjoy?',
      'Employment status',
      'POSTAL_CODE',
      'Highest education',
      'Country of residence',
      'How did you join?',
    ]);
    expect(fieldOf(byLabel('What is your first name?')).querySelector('.var-name')?.textContent).toBe('FIRST_NAME');
    // Text equal to the name is not repeated.
    expect(fieldOf(byLabel('POSTAL_CODE')).querySelector('.var-name')).toBeNull();
    expect(sent('refreshProfile')).toEqual([{ force: false }]);
  });

  it('edits each type with its own control', async () => {
    await mount();
    expect(byLabel('What is your first name?')).toMatchObject({ type: 'text', value: 'Jordan' });
    expect(byLabel('What is your date of birth?')).toMatchObject({ type: 'date', value: '1988-04-17' });
    // An unknown type without options is edited as text.
    expect(byLabel('POSTAL_CODE')).toMatchObject({ type: 'text', value: '' });
    expect(group('Which hobbies do you enjoy?').querySelectorAll('input[type=checkbox]')).toHaveLength(3);
    expect(checked('Which hobbies do you enjoy?')).toEqual(['Reading']);
    // Any choice type other than checkbox is a radio group.
    expect(group('Employment status').querySelectorAll('input[type=radio]')).toHaveLength(2);
    expect(checked('Employment status')).toEqual(['Full-time']);
    expect(group('Highest education').querySelectorAll('input[type=radio]')).toHaveLength(2);
  });

  it('shows read-only values as option text with the reason, without editors', async () => {
    await mount();
    const readOnly = [...container.querySelectorAll('.read-only')].map((e) => e.querySelector('dd')?.textContent);
    expect(readOnly).toEqual([
      'USSet by your panel; you cannot change it here',
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
    expect(container.textContent).toContain('No unsaved changes');
    expect(button('Save changes').disabled).toBe(true);

    await type(byLabel('What is your first name?'), 'Sam');
    await type(byLabel('What is your date of birth?'), '1990-01-02');
    await click(choice('Employment status', 'Student'));
    await click(choice('Highest education', 'Bachelor'));
    await type(byLabel('POSTAL_CODE'), '12345');
    await click(choice('Which hobbies do you enjoy?', 'Cooking'));
    expect(container.textContent).toContain('6 unsaved changes');

    // Editing back to the stored value is no change.
    await type(byLabel('What is your first name?'), 'Jordan');
    expect(container.textContent).toContain('5 unsaved changes');
    await type(byLabel('What is your first name?'), 'Sam');

    handlers.saveValues = ({ values }) => {
      void profileItem.setValue({ data: { definitions: DEFINITIONS, values: { ...STORED, ...values } }, fetchedAt: Date.now() });
      return { ok: true, data: { definitions: DEFINITIONS, values: { ...STORED, ...values } } satisfies ProfileData };
    };
    await click(button('Save changes'));
    expect(sent('saveValues')).toEqual([
      {
        values: { FIRST_NAME: 'Sam', BIRTH_DATE: '1990-01-02', EMPLOYMENT: 42, EDUCATION: 82, POSTAL_CODE: '12345', HOBBIES: [31, 32] },
      },
    ]);
    expect(container.textContent).toContain('No unsaved changes');
    expect(q('[role=status]')?.textContent).toBe('Saved 6 changes.');
    expect(await profileDraftItem.getValue()).toEqual({});
  });

  it('discards the draft', async () => {
    await mount();
    await type(byLabel('What is your first name?'), 'Sam');
    await click(button('Discard changes'));
    expect(byLabel('What is your first name?').value).toBe('Jordan');
    expect(await profileDraftItem.getValue()).toEqual({});
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
    expect(fieldOf(byLabel('What is your date of birth?')).querySelector('.field-error')?.textContent).toMatch(/real date/);
    expect(fieldOf(byLabel('What is your first name?')).querySelector('.field-error')?.textContent).toMatch(/1000 characters/);
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
    await type(byLabel('POSTAL_CODE'), '12345');
    await type(byLabel('What is your first name?'), 'Sam');
    await click(button('Save changes'));
    expect(sent('saveValues')).toHaveLength(1);
    expect(fieldOf(byLabel('POSTAL_CODE')).querySelector('.field-error')?.textContent).toBe('Variable POSTAL_CODE is not writable');
    expect(q('[role=alert]')?.textContent).toContain('Nothing was saved');
    expect(byLabel('POSTAL_CODE').value).toBe('12345');
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

  it('clears a stored value only after an inline confirmation', async () => {
    handlers.deleteValue = ({ name }) => {
      const { [name]: _, ...rest } = STORED;
      void profileItem.setValue({ data: { definitions: DEFINITIONS, values: rest }, fetchedAt: Date.now() });
      return { ok: true, data: { definitions: DEFINITIONS, values: rest } };
    };
    await mount();
    // Only answered writable questions can be cleared.
    expect(container.querySelectorAll('.field .link-button')).toHaveLength(4);
    await click(button('Clear What is your date of birth?'));
    expect(sent('deleteValue')).toEqual([]);
    await click(button('Cancel'));
    expect(sent('deleteValue')).toEqual([]);

    await click(button('Clear What is your date of birth?'));
    expect(document.activeElement?.textContent).toBe('Remove answer');
    await click(button('Remove answer'));
    expect(sent('deleteValue')).toEqual([{ name: 'BIRTH_DATE' }]);
    expect(byLabel('What is your date of birth?').value).toBe('');
    expect(document.activeElement).toBe(byLabel('What is your date of birth?'));
    expect(q('[role=status]')?.textContent).toBe('Removed your answer to “What is your date of birth?”.');
  });

  it('renders a long questionnaire a page at a time, and reveals a hidden question with a problem', async () => {
    const many = Array.from({ length: 230 }, (_, i) => page.question(1000 + i, `Q_${i}`, `Question ${i + 1}?`, 'text', i < 200));
    await profileItem.setValue({ data: { definitions: many, values: {} }, fetchedAt: Date.now() });
    await profileDraftItem.setValue({ Q_150: 'x'.repeat(1001) });
    await mount();
    const fields = () => [...container.querySelectorAll('label, dt')].filter((e) => /^Question \d+\?/.test(e.textContent?.trim() ?? '')).length;
    expect(container.querySelectorAll('input').length).toBe(PROFILE_PAGE);
    expect(fields()).toBe(PROFILE_PAGE);

    await page.click(page.button(container, 'Save changes'));
    expect(byLabel('Question 151?').getAttribute('aria-invalid')).toBe('true');
    expect(container.querySelectorAll('input').length).toBe(151);

    await page.click(page.button(container, 'Show 79 more questions'));
    expect(fields()).toBe(230);
    expect(container.querySelectorAll('input').length).toBe(200);
    expect([...container.querySelectorAll('button')].some((b) => /more questions/.test(b.textContent ?? ''))).toBe(false);
  });
});
