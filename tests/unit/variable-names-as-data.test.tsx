/**
 * A panel may name a profile question anything, `__proto__`, `constructor` and `toString` included:
 * names are data, never object keys that reach the prototype (utils/by-name.ts). A hostile-panel
 * fuzz found a question named `__proto__` turning the first name and country into "[object Object]"
 * and marking every question unsaved. Held here at each place a name indexes something: the stored
 * answers as the API client reads them, the message door, the draft (page and background), the
 * texts a refusal gives each field, the profile words, and the options page itself.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ProfileSection } from '../../components/options/ProfileSection';
import { editDraft } from '../../entrypoints/background/profile/draft';
import { toStoredValues } from '../../utils/stored-values';
import { checkRequest } from '../../utils/message-schemas';
import { sendMessage, type Result } from '../../utils/messages';
import { nameLabel } from '../../utils/question-text';
import { completeness } from '../../utils/profile-completeness';
import { profileDraftItem, profileItem } from '../../utils/storage-items';
import type { StoredValues, VariableDefinition } from '../../utils/types';
import { diffDraft, validateValues } from '../../utils/variable-values';
import * as page from './options-fixtures';

vi.mock('../../utils/messages', () => ({ sendMessage: vi.fn() }));

type Handler = (data: any) => Result<unknown> | Promise<Result<unknown>> | undefined;
const send = sendMessage as unknown as page.SendMock;
const sent = (type: string) => send.mock.calls.filter(([t]) => t === type).map(([, data]) => data);
const { option, question } = page;

const PROTO_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

const DEFINITIONS: VariableDefinition[] = [
  question(1, 'FIRST_NAME', 'What is your first name?', 'text', true),
  question(10, '__proto__', 'What should we call you?', 'text', true),
  question(11, 'constructor', 'Favourite colour', 'text', true),
  question(12, 'toString', 'Do you own a car?', 'radio', true, [option(121, 'Yes'), option(122, 'No')]),
  question(6, 'COUNTRY', 'Country of residence', 'text', false),
];

/** Stored answers as JSON.parse gives them: `__proto__` an own property, like any other name. */
const storedJson = (text: string) => JSON.parse(text) as StoredValues;

describe('names are data wherever they index something', () => {
  it('the stored answers keep every name as its own entry, and none reads through the prototype', () => {
    const values = toStoredValues(
      JSON.parse('{"FIRST_NAME":"Jordan","__proto__":"Ace","constructor":"Blue","COUNTRY":"US"}'),
    );
    expect(Object.keys(values).sort()).toEqual(['COUNTRY', 'FIRST_NAME', '__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(values, '__proto__')?.value).toBe('Ace');
    expect(values.constructor).toBe('Blue');
    expect(Object.hasOwn(values, 'toString')).toBe(false);
    const listed = toStoredValues([
      { name: '__proto__', value: 'Ace' },
      { name: 'toString', value: [121] },
    ]);
    expect(Object.getOwnPropertyDescriptor(listed, '__proto__')?.value).toBe('Ace');
    expect(Object.getOwnPropertyDescriptor(listed, 'toString')?.value).toEqual([121]);
  });

  it('an unanswered question named after an Object method is open, not answered by Object.prototype', () => {
    const values = storedJson('{"FIRST_NAME":"Jordan"}');
    expect(completeness(DEFINITIONS, values)).toMatchObject({
      answered: 1,
      total: 4,
      open: ['__proto__', 'constructor', 'toString'],
    });
    expect(diffDraft(storedJson('{}'), values)).toEqual({});
    const changes = diffDraft(storedJson('{"__proto__":"Ace","constructor":"Blue"}'), values);
    expect(Object.keys(changes)).toEqual(['__proto__', 'constructor']);
    const problems = validateValues(DEFINITIONS, storedJson('{"__proto__":"","constructor":"Blue"}'));
    expect(Object.keys(problems)).toEqual(['__proto__']);
  });

  it('the message door keeps an edit or a save of every name (valibot’s record drops three of them)', () => {
    for (const name of PROTO_NAMES) {
      const changes = JSON.parse(`{"${name}":"x","FIRST_NAME":null}`) as unknown;
      const checked = checkRequest('editDraft', { session: 's', changes });
      expect(checked.ok, name).toBe(true);
      if (checked.ok) expect(Object.getOwnPropertyDescriptor(checked.data.changes, name)?.value, name).toBe('x');
      const saved = checkRequest('saveValues', { session: 's', values: JSON.parse(`{"${name}":"x"}`) as unknown });
      expect(saved.ok && Object.getOwnPropertyDescriptor(saved.data.values, name)?.value, name).toBe('x');
    }
    const bad = checkRequest('saveValues', { session: 's', values: JSON.parse('{"__proto__":{"x":1}}') as unknown });
    expect(bad).toMatchObject({ ok: false, field: 'values.__proto__' });
  });

  it('the background’s draft takes an edit of `__proto__` as an answer, not as its prototype', async () => {
    fakeBrowser.reset();
    await page.asConnected();
    await editDraft({ session: page.PAGE_SESSION, changes: JSON.parse('{"__proto__":[121],"FIRST_NAME":"Sam"}') });
    const draft = await profileDraftItem.getValue();
    expect(Object.getPrototypeOf(draft)).not.toEqual([121]);
    expect(Object.getOwnPropertyDescriptor(draft, '__proto__')?.value).toEqual([121]);
    await editDraft({ session: page.PAGE_SESSION, changes: JSON.parse('{"__proto__":null}') });
    expect(Object.keys(await profileDraftItem.getValue())).toEqual(['FIRST_NAME']);
  });

  it('a question named after an Object method gets a label made from its name, not a message key from the prototype', () => {
    for (const name of PROTO_NAMES) expect(nameLabel(name), name).not.toMatch(/function|\[object|native code/);
    expect(nameLabel('constructor')).toBe('Constructor');
    expect(nameLabel('toString')).toBe('To string');
  });
});

describe('the options page with questions named __proto__, constructor and toString', () => {
  let container: HTMLElement;
  let handlers: Record<string, Handler>;
  const byLabel = (text: string) => page.byLabel(container, text);
  const fieldOf = (input: Element) => input.closest('.field') as HTMLElement;
  const checked = (legend: string) =>
    [...page.group(container, legend).querySelectorAll<HTMLInputElement>('input')].filter((i) => i.checked);

  beforeEach(async () => {
    fakeBrowser.reset();
    container = page.newContainer();
    await profileItem.setValue({
      data: { definitions: DEFINITIONS, values: storedJson('{"FIRST_NAME":"Jordan","COUNTRY":"US"}') },
      fetchedAt: Date.now(),
    });
    handlers = {};
    send.mockReset();
    await page.asConnected();
    send.mockImplementation(
      async (type, data) => handlers[type]?.(data) ?? page.draftMessage(type, data) ?? { ok: true, data: null },
    );
  });
  afterEach(() => page.dropContainer(container));

  it('shows the first name and country as stored, every other question empty, and nothing unsaved', async () => {
    await page.mountInto(container, <ProfileSection />);
    await page.profileRead(container);
    expect(byLabel('What is your first name?').value).toBe('Jordan');
    expect(container.textContent).toContain('United States');
    expect(byLabel('What should we call you?').value).toBe('');
    expect(byLabel('Favourite colour').value).toBe('');
    expect(checked('Do you own a car?')).toEqual([]);
    expect(container.textContent).not.toMatch(/\[object Object\]|function|native code/);
    expect(container.textContent).not.toContain('unsaved change');
    expect(container.textContent).toContain('1 of 4 answered');
  });

  it('saves an answer to `__proto__` as an answer, and shows a refusal of `constructor` beside that question only', async () => {
    await page.mountInto(container, <ProfileSection />);
    await page.profileRead(container);
    await page.type(byLabel('What should we call you?'), 'Ace');
    await page.type(byLabel('Favourite colour'), 'Blue');
    expect(container.textContent).toContain('2 unsaved changes');
    handlers.saveValues = () => ({
      ok: false,
      error: JSON.parse(
        '{"kind":"rejected","status":422,"message":"The given data was invalid.","fields":{"constructor":"Too bright."}}',
      ) as never,
    });
    await page.click(page.button(container, 'Save changes'));
    const [{ values }] = sent('saveValues') as [{ values: StoredValues }];
    expect(JSON.stringify(values)).toBe('{"__proto__":"Ace","constructor":"Blue"}');
    expect(fieldOf(byLabel('Favourite colour')).querySelector('.field-error')?.textContent).toBe('Too bright.');
    expect(fieldOf(byLabel('What should we call you?')).querySelector('.field-error')).toBeNull();
    expect(fieldOf(byLabel('What is your first name?')).querySelector('.field-error')).toBeNull();
    expect(byLabel('What should we call you?').value).toBe('Ace');
    const draft = await profileDraftItem.getValue();
    expect(Object.getOwnPropertyDescriptor(draft, '__proto__')?.value).toBe('Ace');
  });
});
