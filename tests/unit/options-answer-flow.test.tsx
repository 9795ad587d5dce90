/**
 * Answering the profile on the options page: the completeness summary at the top of "Your profile", the "Open
 * questions only" filter, "Answer the next question" one at a time through the same draft and Save
 * path (keyboard first, errors beside the question, nothing lost), the link from the popup, and the
 * "New" tag; in English and German.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ProfileSection } from '../../components/options/ProfileSection';
import { sendMessage, type Result } from '../../utils/messages';
import { profileDraftItem, profileItem, questionsItem } from '../../utils/storage-items';
import type { StoredValues, VariableDefinition } from '../../utils/types';
import { installI18n } from './i18n-setup';
import * as page from './options-fixtures';

vi.mock('../../utils/messages', () => ({ sendMessage: vi.fn() }));

type Handler = (data: any) => Result<unknown>;
const send = sendMessage as unknown as page.SendMock;
const sent = (type: string) => send.mock.calls.filter(([t]) => t === type).map(([, data]) => data);
const { option, question, click, type } = page;

const ACCOUNT = 'https://panel.example|abcd';
const DEFINITIONS: VariableDefinition[] = [
  question(6, 'COUNTRY', 'Country of residence', 'text', false),
  question(1, 'FIRST_NAME', 'What is your first name?', 'text', true),
  question(3, 'HOBBIES', 'Which hobbies do you enjoy?', 'checkbox', true, [
    option(31, 'Reading'),
    option(35, 'None of these', true),
  ]),
  question(5, 'POSTAL_CODE', 'POSTAL_CODE', 'zipcode', true),
  question(4, 'EMPLOYMENT', 'Employment status', 'radio', true, [option(41, 'Full-time'), option(42, 'Student')]),
  question(8, 'EDUCATION', 'Highest education', 'select', true, [option(81, 'Secondary'), option(82, 'Bachelor')]),
];
// Two of five writable questions answered (an empty checkbox list is not an answer): open are the
// hobbies, the postal code and the education.
const STORED: StoredValues = { FIRST_NAME: 'Jordan', HOBBIES: [], EMPLOYMENT: 41, COUNTRY: 'US' };

let container: HTMLElement;
let handlers: Record<string, Handler>;
let server: StoredValues;

/** The profile section, once it has read the profile and the draft. */
const mount = async () => {
  await page.mountInto(container, <ProfileSection account={ACCOUNT} />);
  await page.profileRead(container);
};
const button = (name: string) => page.button(container, name);
const byLabel = (text: string) => page.byLabel(container, text);
const choice = (legend: string, text: string) => page.choice(container, legend, text);
const q = <T extends Element = HTMLElement>(selector: string) => container.querySelector<T & HTMLElement>(selector);
const flowHeading = () => q('#answer-flow-heading')?.textContent;
const focused = () => document.activeElement;

/** The panel stores what it is sent and the profile cache follows, as the background does. */
function panelSaves(): void {
  handlers.saveValues = ({ values }) => {
    Object.assign(server, values);
    void profileItem.setValue({ data: { definitions: DEFINITIONS, values: { ...server } }, fetchedAt: Date.now() });
    return { ok: true, data: null };
  };
}

beforeEach(async () => {
  fakeBrowser.reset();
  container = page.newContainer();
  server = { ...STORED };
  await profileItem.setValue({ data: { definitions: DEFINITIONS, values: STORED }, fetchedAt: Date.now() });
  handlers = {};
  send.mockReset();
  await page.asConnected();
  send.mockImplementation(
    async (type, data) => handlers[type]?.(data) ?? page.draftMessage(type, data) ?? { ok: true, data: null },
  );
  panelSaves();
});

afterEach(async () => {
  await page.dropContainer(container);
  history.replaceState(null, '', location.pathname);
  vi.unstubAllGlobals();
  // Pages reach storage through the browser's own namespace (utils/storage-item.ts): it stays the fake's.
  vi.stubGlobal('browser', fakeBrowser);
});

describe('completeness summary and filter', () => {
  it('says how many questions are answered, in words and as a bar those words name', async () => {
    await mount();
    const text = q('#profile-progress-text')!;
    expect(text.textContent).toBe('2 of 5 answered');
    const bar = q<HTMLProgressElement>('progress')!;
    expect([bar.value, bar.max]).toEqual([2, 5]);
    expect(bar.getAttribute('aria-labelledby')).toBe('profile-progress-text');
    // At the top of the section, before the questions.
    expect(text.compareDocumentPosition(q('form')!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(button('Answer the next question')).toBeTruthy();
  });

  it('"Open questions only" lists the open ones and keeps one being edited; read-only ones step aside', async () => {
    await mount();
    await click(byLabel('Open questions only'));
    const questions = () =>
      [...container.querySelectorAll('form .field > .field-head label, form legend')].map((e) => e.textContent?.trim());
    expect(questions()).toEqual(['Which hobbies do you enjoy?', 'Postal code', 'Highest education']);
    expect(container.textContent).not.toContain('Country of residence');
    await click(byLabel('Open questions only'));
    expect(questions()).toHaveLength(5);
  });

  it('all answered: said once, no thank-you, and nothing more to do', async () => {
    await profileItem.setValue({
      data: { definitions: DEFINITIONS, values: { ...STORED, HOBBIES: [31], POSTAL_CODE: '10115', EDUCATION: 82 } },
      fetchedAt: Date.now(),
    });
    await mount();
    // Once, as the bar's words: not "5 of 5 answered" and "Every question is answered." both.
    expect(q('#profile-progress-text')?.textContent).toBe('Every question is answered.');
    expect(container.textContent?.split('Every question is answered.')).toHaveLength(2);
    expect(container.textContent).not.toContain('5 of 5');
    // The thanks belong to the end of answering, once, not to every summary.
    expect(container.textContent).not.toContain('Thank you');
    expect(() => button('Answer the next question')).toThrow();
    expect(container.querySelector('#profile-open-only')).toBeNull();
  });

  it('no summary before the profile is there, nor for a panel without writable questions', async () => {
    await profileItem.setValue(null);
    await mount();
    expect(q('progress')).toBeNull();
    await page.unmountFrom(container);
    await profileItem.setValue({ data: { definitions: [DEFINITIONS[0]!], values: STORED }, fetchedAt: 1 });
    await mount();
    expect(q('progress')).toBeNull();
  });
});

describe('answering one question at a time', () => {
  it('saves one, skips one, saves the next, and ends with a thank-you and the count', async () => {
    await mount();
    await click(button('Answer the next question'));
    await page.nextFrame();
    expect(flowHeading()).toBe('Question 1 of 3');
    // The list makes way; the question's own control has focus.
    expect(q('.save-bar')).toBeNull();
    expect(focused()).toBe(choice('Which hobbies do you enjoy?', 'Reading'));

    await click(choice('Which hobbies do you enjoy?', 'Reading'));
    await click(button('Save & next'));
    await page.nextFrame();
    expect(sent('saveValues')).toEqual([{ session: page.PAGE_SESSION, values: { HOBBIES: [31] } }]);
    // What was saved is named, above the next question, not under its choices.
    const saved = q('.answer-flow [role=status]')!;
    expect(saved.textContent).toBe('Saved your answer to “Which hobbies do you enjoy?”.');
    expect(saved.compareDocumentPosition(q('#answer-flow-heading')!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(saved.compareDocumentPosition(byLabel('Postal code')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(flowHeading()).toBe('Question 2 of 3');
    expect(focused()).toBe(byLabel('Postal code'));
    expect(q('#profile-progress-text')?.textContent).toBe('3 of 5 answered');

    // Skip names the question it skips.
    expect(button('Skip').getAttribute('aria-label')).toBe('Skip: Postal code');
    await click(button('Skip'));
    await page.nextFrame();
    expect(flowHeading()).toBe('Question 3 of 3');
    // Nothing was saved for the question just skipped: the last line does not stay to suggest it was.
    expect(q('.answer-flow [role=status]')?.textContent).toBe('');
    await click(choice('Highest education', 'Bachelor'));
    await click(button('Save & next'));
    await page.nextFrame();
    expect(sent('saveValues')).toEqual([
      { session: page.PAGE_SESSION, values: { HOBBIES: [31] } },
      { session: page.PAGE_SESSION, values: { EDUCATION: 82 } },
    ]);
    expect(flowHeading()).toBe('Thank you!');
    expect(focused()).toBe(q('#answer-flow-heading'));
    expect(q('.answer-flow [role=status]')?.textContent).toBe(
      'You answered 2 questions. 1 skipped question is still open.',
    );
    expect(container.textContent.split('Thank you').length - 1).toBe(1);
    expect(await profileDraftItem.getValue()).toEqual({});

    await click(button('Back to your profile'));
    await page.nextFrame();
    // The list again, its save bar only once something changes.
    expect(q('#profile-writable-heading')).not.toBeNull();
    expect(q('.save-bar')).toBeNull();
    expect(focused()).toBe(button('Answer the next question'));
  });

  it('is keyboard first: Enter on a choice saves and moves on', async () => {
    await mount();
    await click(button('Answer the next question'));
    await click(button('Skip'));
    await click(button('Skip'));
    await page.nextFrame();
    const bachelor = choice('Highest education', 'Bachelor');
    await click(bachelor);
    await page.settle();
    bachelor.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    await page.settle();
    expect(sent('saveValues')).toEqual([{ session: page.PAGE_SESSION, values: { EDUCATION: 82 } }]);
    expect(flowHeading()).toBe('Thank you!');
  });

  it('Save & next without an answer asks for one beside the question and sends nothing', async () => {
    await mount();
    await click(button('Answer the next question'));
    await click(button('Skip'));
    await click(button('Save & next'));
    expect(send.mock.calls.filter(([t]) => t === 'saveValues')).toEqual([]);
    const field = byLabel('Postal code');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.closest('.field')?.querySelector('.field-error')?.textContent).toBe(
      'Give an answer, or choose Skip to come back to this question later.',
    );
    expect(focused()).toBe(field);
    await type(field, '1');
    expect(field.getAttribute('aria-invalid')).toBeNull();
  });

  it('a refusal stays beside the question with the edit kept; after a fix it goes on', async () => {
    handlers.saveValues = () => ({
      ok: false,
      error: {
        kind: 'rejected',
        status: 422,
        message: 'The postal code format is invalid.',
        fields: { POSTAL_CODE: 'The postal code format is invalid.' },
      },
    });
    await mount();
    await click(button('Answer the next question'));
    await click(button('Skip'));
    await type(byLabel('Postal code'), 'ABC');
    await click(button('Save & next'));
    await page.nextFrame();
    expect(flowHeading()).toBe('Question 2 of 3');
    expect(byLabel('Postal code').closest('.field')?.querySelector('.field-error')?.textContent).toBe(
      'The postal code format is invalid.',
    );
    // The panel's sentence once, beside the question; above Save only where to look.
    expect(q('.answer-flow [role=alert]')?.textContent).toBe('Nothing was saved. See the note under “Postal code”.');
    expect(q('.answer-flow')?.textContent?.split('The postal code format is invalid.')).toHaveLength(2);
    expect(focused()).toBe(byLabel('Postal code'));
    expect(byLabel('Postal code').value).toBe('ABC');
    expect(await profileDraftItem.getValue()).toEqual({ POSTAL_CODE: 'ABC' });

    panelSaves();
    await type(byLabel('Postal code'), '10115');
    await click(button('Save & next'));
    expect(flowHeading()).toBe('Question 3 of 3');
    expect(server.POSTAL_CODE).toBe('10115');
  });

  it('a failure no question explains is said where Save was pressed, and focused; the edit stays', async () => {
    handlers.saveValues = () => ({ ok: false, error: { kind: 'network', message: 'The panel could not be reached.' } });
    await mount();
    await click(button('Answer the next question'));
    await click(button('Skip'));
    await type(byLabel('Postal code'), '10115');
    await click(button('Save & next'));
    await page.nextFrame();
    const alert = q('.answer-flow [role=alert]')!;
    expect(alert.textContent).toMatch(/could not be reached\. Check your internet connection/);
    expect(focused()).toBe(alert);
    expect(await profileDraftItem.getValue()).toEqual({ POSTAL_CODE: '10115' });
  });

  it('an edit made before Skip stays in the draft, unsaved, for the list', async () => {
    await mount();
    await click(button('Answer the next question'));
    await click(button('Skip'));
    await type(byLabel('Postal code'), '10115');
    await click(button('Skip'));
    await click(button('Back to all questions'));
    expect(await profileDraftItem.getValue()).toEqual({ POSTAL_CODE: '10115' });
    expect(container.textContent).toContain('1 unsaved change');
    expect(byLabel('Postal code').value).toBe('10115');
    expect(sent('saveValues')).toEqual([]);
  });

  it("from the popup's link: starts at the question it names, then the others in order, and the link is used once", async () => {
    history.replaceState(null, '', '#answer-EDUCATION');
    await mount();
    await page.nextFrame();
    expect(flowHeading()).toBe('Question 1 of 3');
    expect(focused()).toBe(choice('Highest education', 'Secondary'));
    expect(location.hash).toBe('');
    await click(button('Skip'));
    expect(focused()).toBe(choice('Which hobbies do you enjoy?', 'Reading'));
  });

  it('in German', async () => {
    installI18n('de');
    await mount();
    expect(q('#profile-progress-text')?.textContent).toBe('2 von 5 beantwortet');
    await click(button('Nächste Frage beantworten'));
    expect(flowHeading()).toBe('Frage 1 von 3');
    await click(choice('Which hobbies do you enjoy?', 'Reading'));
    await click(button('Speichern und weiter'));
    expect(q('.answer-flow [role=status]')?.textContent).toBe(
      'Ihre Antwort auf „Which hobbies do you enjoy?“ wurde gespeichert.',
    );
    expect(
      q('.answer-flow [role=status]')!.compareDocumentPosition(q('#answer-flow-heading')!) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    await click(button('Überspringen'));
    await click(button('Überspringen'));
    expect(flowHeading()).toBe('Vielen Dank!');
    expect(container.textContent.match(/Dank/g)).toHaveLength(1);
    expect(q('.answer-flow [role=status]')?.textContent).toBe(
      'Sie haben 1 Frage beantwortet. 2 übersprungene Fragen sind noch offen.',
    );
    expect(button('Zurück zu Ihrem Profil')).toBeTruthy();
  });

  it("answering the last open question thanks once: the end of the flow, not also the profile's summary", async () => {
    await mount();
    await click(button('Answer the next question'));
    await click(choice('Which hobbies do you enjoy?', 'Reading'));
    await click(button('Save & next'));
    await type(byLabel('Postal code'), '10115');
    await click(button('Save & next'));
    expect(q('.answer-flow [role=status]')?.textContent).toBe('Saved your answer to “Postal code”.');
    await click(choice('Highest education', 'Bachelor'));
    await click(button('Save & next'));
    expect(flowHeading()).toBe('Thank you!');
    expect(container.textContent).toContain('Every question is answered.');
    expect(container.textContent.match(/Thank/g)).toHaveLength(1);
  });

  it('skipping all of them ends without thanks for answers not given', async () => {
    await mount();
    await click(button('Answer the next question'));
    for (let i = 0; i < 3; i++) await click(button('Skip'));
    expect(flowHeading()).toBe('That was the last open question');
    expect(q('.answer-flow [role=status]')?.textContent).toBe('3 skipped questions are still open.');
  });
});

describe('new questions', () => {
  /** Visibility the test controls, standing in for the browser's IntersectionObserver. */
  let observed: Array<{ target: Element; callback: IntersectionObserverCallback }>;
  const scrollIntoView = () => {
    for (const { target, callback } of observed)
      callback([{ target, isIntersecting: true } as IntersectionObserverEntry], {} as IntersectionObserver);
  };

  beforeEach(() => {
    observed = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(private readonly callback: IntersectionObserverCallback) {}
        observe(target: Element) {
          observed.push({ target, callback: this.callback });
        }
        disconnect() {
          observed = observed.filter((o) => o.callback !== this.callback);
        }
      },
    );
  });

  const tagOf = (element: Element) => element.closest('.field')?.querySelector('.tag-new')?.textContent;

  it('are tagged "New" until seen: once on screen the background is told, and the tag stays while the page is open', async () => {
    await questionsItem.setValue({
      account: ACCOUNT,
      known: [],
      fresh: [
        { name: 'EDUCATION', text: 'Highest education' },
        { name: 'FIRST_NAME', text: '' },
      ],
    });
    await mount();
    expect(tagOf(choice('Highest education', 'Secondary'))).toBe('New');
    // Answered since: not new, whatever the record still says.
    expect(tagOf(byLabel('What is your first name?'))).toBeUndefined();
    expect(tagOf(byLabel('Postal code'))).toBeUndefined();
    // Screen readers hear it with the question.
    expect(choice('Highest education', 'Secondary').closest('fieldset')?.getAttribute('aria-describedby')).toBe(
      'var-8-new',
    );
    expect(sent('seeQuestions')).toEqual([]);

    scrollIntoView();
    await page.settle();
    expect(sent('seeQuestions')).toEqual([{ account: ACCOUNT, names: ['EDUCATION'] }]);
    await questionsItem.setValue({ account: ACCOUNT, known: [], fresh: [] });
    await page.settle();
    expect(tagOf(choice('Highest education', 'Secondary'))).toBe('New');
  });

  it('also in the one-at-a-time flow, in German', async () => {
    installI18n('de');
    await questionsItem.setValue({ account: ACCOUNT, known: [], fresh: [{ name: 'POSTAL_CODE', text: '' }] });
    await mount();
    await click(button('Nächste Frage beantworten'));
    await click(button('Überspringen'));
    // Named in German, though the panel sent only POSTAL_CODE.
    expect(tagOf(byLabel('Postleitzahl'))).toBe('Neu');
  });

  it('never another account’s', async () => {
    await questionsItem.setValue({
      account: 'https://other.example|zzzz',
      known: [],
      fresh: [{ name: 'EDUCATION', text: 'Highest education' }],
    });
    await mount();
    expect(tagOf(choice('Highest education', 'Secondary'))).toBeUndefined();
    scrollIntoView();
    await page.settle();
    expect(sent('seeQuestions')).toEqual([]);
  });
});
