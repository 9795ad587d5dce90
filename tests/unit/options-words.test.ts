// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { questionText } from '../../utils/question-text';
import { humanise } from '../../utils/humanise';

describe('names in words (issue 14)', () => {
  it.each([
    ['POSTAL_CODE', 'Postal code'],
    ['IN_REVIEW', 'In review'],
    ['firstName', 'First name'],
    ['  awaiting-claim ', 'Awaiting claim'],
    ['X', 'X'],
    ['__', '__'],
  ])('%s → %s', (raw, words) => expect(humanise(raw)).toBe(words));

  it('uses the question text, humanising the name only when the text is missing or is the name', () => {
    expect(questionText({ name: 'FIRST_NAME', text: 'What is your first name?' })).toBe('What is your first name?');
    expect(questionText({ name: 'POSTAL_CODE', text: 'POSTAL_CODE' })).toBe('Postal code');
    expect(questionText({ name: 'POSTAL_CODE', text: '  ' })).toBe('Postal code');
  });
});
