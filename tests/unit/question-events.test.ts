/**
 * Which profile questions are new, found by comparing a read with the session's earlier
 * ones (entrypoints/background/profile/question-events.ts): added, removed, renamed, answered, seen, and
 * another account.
 */
import { describe, expect, it } from 'vitest';
import { markSeen, readQuestions } from '../../entrypoints/background/profile/question-events';
import type { ProfileData } from '../../utils/storage-items';
import type { StoredValues, VariableDefinition } from '../../utils/types';
import { option, question } from './options-fixtures';

const A = 'https://panel.example|abcd';
const B = 'https://panel.example|wxyz';

const BASE: VariableDefinition[] = [
  question(1, 'FIRST_NAME', 'What is your first name?', 'text', true),
  question(2, 'COUNTRY', 'Country of residence', 'text', false),
  question(3, 'EMPLOYMENT', 'Employment status', 'radio', true, [option(41, 'Full-time')]),
];
const PETS = question(4, 'PETS', 'Do you have pets?', 'radio', true, [option(51, 'Yes'), option(52, 'No')]);
const CAR = question(5, 'CAR', 'Which car do you drive?', 'text', true);

const profile = (definitions: VariableDefinition[], values: StoredValues = { FIRST_NAME: 'Ann' }): ProfileData => ({
  definitions,
  values,
});

/** The record after the session's first read of BASE. */
const first = () => readQuestions(null, A, profile(BASE)).after;

describe('new questions', () => {
  it('the first read of a session only records what is there', () => {
    const { after, added } = readQuestions(null, A, profile([...BASE, PETS]));
    expect(added).toEqual([]);
    expect(after).toEqual({ account: A, known: ['FIRST_NAME', 'COUNTRY', 'EMPLOYMENT', 'PETS'], fresh: [] });
  });

  it('a writable question the earlier reads did not list is new, once', () => {
    const { after, added } = readQuestions(first(), A, profile([...BASE, PETS]));
    expect(added).toEqual([{ name: 'PETS', text: 'Do you have pets?' }]);
    expect(after.fresh).toEqual([{ name: 'PETS', text: 'Do you have pets?' }]);
    // The next read finds it known: still new (not answered or seen), but not added again.
    const again = readQuestions(after, A, profile([...BASE, PETS]));
    expect(again.added).toEqual([]);
    expect(again.after.fresh).toEqual(after.fresh);
  });

  it('several at once, in the order the panel lists them; a new read-only variable is not a question to answer', () => {
    const rule = question(6, 'PANEL_TIER', 'Panel tier', 'text', false);
    const { added } = readQuestions(first(), A, profile([CAR, ...BASE, rule, PETS]));
    expect(added.map((q) => q.name)).toEqual(['CAR', 'PETS']);
  });

  it('a new question the panel already holds an answer to is not new', () => {
    expect(readQuestions(first(), A, profile([...BASE, PETS], { FIRST_NAME: 'Ann', PETS: 51 })).added).toEqual([]);
  });

  it('nor one whose answer the panel holds in a shape the extension cannot read', () => {
    const held: ProfileData = { ...profile([...BASE, PETS]), unreadable: ['PETS'] };
    expect(readQuestions(first(), A, held).added).toEqual([]);
  });

  it('stays new until answered', () => {
    const { after } = readQuestions(first(), A, profile([...BASE, PETS]));
    const answered = readQuestions(after, A, profile([...BASE, PETS], { FIRST_NAME: 'Ann', PETS: 52 }));
    expect(answered.after.fresh).toEqual([]);
    expect(answered.added).toEqual([]);
    // An answer removed later does not make it new again.
    expect(readQuestions(answered.after, A, profile([...BASE, PETS])).after.fresh).toEqual([]);
  });

  it('stays new until seen', () => {
    const { after } = readQuestions(first(), A, profile([...BASE, PETS, CAR]));
    const seen = markSeen(after, ['PETS', 'NOT_A_QUESTION']);
    expect(seen.fresh.map((q) => q.name)).toEqual(['CAR']);
    expect(readQuestions(seen, A, profile([...BASE, PETS, CAR])).after.fresh.map((q) => q.name)).toEqual(['CAR']);
  });

  it('a removed definition is no longer new, and listed again later it is not new either', () => {
    const added = readQuestions(first(), A, profile([...BASE, PETS])).after;
    const removed = readQuestions(added, A, profile(BASE));
    expect(removed.after.fresh).toEqual([]);
    expect(removed.after.known).toContain('PETS');
    const back = readQuestions(removed.after, A, profile([...BASE, PETS]));
    expect(back.added).toEqual([]);
    expect(back.after.fresh).toEqual([]);
  });

  it('a removed question that was never new changes nothing', () => {
    const { after, added } = readQuestions(first(), A, profile(BASE.filter((d) => d.name !== 'EMPLOYMENT')));
    expect(added).toEqual([]);
    expect(after.fresh).toEqual([]);
  });

  it('a renamed text is the same question: not new, and a new one keeps its new text', () => {
    const renamed = BASE.map((d) => (d.name === 'EMPLOYMENT' ? { ...d, text: 'What do you do for a living?' } : d));
    expect(readQuestions(first(), A, profile(renamed)).added).toEqual([]);
    const added = readQuestions(first(), A, profile([...BASE, PETS])).after;
    const reworded = readQuestions(added, A, profile([...BASE, { ...PETS, text: 'Any pets at home?' }]));
    expect(reworded.added).toEqual([]);
    expect(reworded.after.fresh).toEqual([{ name: 'PETS', text: 'Any pets at home?' }]);
  });

  it('a question that became writable was listed before: not new; one that stopped being writable is no longer new', () => {
    const writableNow = BASE.map((d) => (d.name === 'COUNTRY' ? { ...d, writable: true } : d));
    expect(readQuestions(first(), A, profile(writableNow)).added).toEqual([]);
    const added = readQuestions(first(), A, profile([...BASE, PETS])).after;
    expect(readQuestions(added, A, profile([...BASE, { ...PETS, writable: false }])).after.fresh).toEqual([]);
  });

  it('another account: its first read only records, whatever the record of the account before held', () => {
    const ofA = readQuestions(first(), A, profile([...BASE, PETS])).after;
    const { after, added } = readQuestions(ofA, B, profile([...BASE, PETS, CAR]));
    expect(added).toEqual([]);
    expect(after).toEqual({ account: B, known: ['FIRST_NAME', 'COUNTRY', 'EMPLOYMENT', 'PETS', 'CAR'], fresh: [] });
  });
});
