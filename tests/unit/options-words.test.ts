// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { questionText } from '../../utils/question-text';
import { humanise } from '../../utils/humanise';
import { installI18n } from './i18n-setup';

describe('names in words', () => {
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

describe('names in the page’s language', () => {
  it.each([
    ['de', 'Postleitzahl', 'Geburtsdatum', 'Haushaltseinkommen'],
    ['ar', 'الرمز البريدي', 'تاريخ الميلاد', 'دخل الأسرة'],
    ['ja', '郵便番号', '生年月日', '世帯収入'],
    ['fr', 'Code postal', 'Date de naissance', 'Revenu du foyer'],
  ])('%s: common profile words come from the messages, whatever the spelling', (locale, postal, birth, income) => {
    installI18n(locale);
    for (const name of ['POSTAL_CODE', 'postalCode', 'ZIP', 'zip_code', 'PANELIST_POSTCODE'])
      expect(questionText({ name, text: name }), name).toBe(postal);
    for (const name of ['DATE_OF_BIRTH', 'birthDate', 'DOB'])
      expect(questionText({ name, text: '' }), name).toBe(birth);
    expect(questionText({ name: 'HOUSEHOLD_INCOME', text: '' })).toBe(income);
  });

  it('English reads them the same way, spellings included', () => {
    expect(questionText({ name: 'ZIP', text: 'ZIP' })).toBe('Postal code');
    expect(questionText({ name: 'PANELIST_COUNTRY', text: '' })).toBe('Country');
    expect(questionText({ name: 'e-mail', text: '' })).toBe('Email address');
  });

  it('a name with no word of its own: the panel’s own text, never words made in English', () => {
    installI18n('de');
    expect(questionText({ name: 'PANEL_SOURCE', text: 'PANEL_SOURCE' })).toBe('PANEL_SOURCE');
    expect(questionText({ name: 'PET_OWNER', text: '' })).toBe('PET_OWNER');
    // The panel's own question text is always its own.
    expect(questionText({ name: 'POSTAL_CODE', text: 'Wie lautet Ihre Postleitzahl?' })).toBe(
      'Wie lautet Ihre Postleitzahl?',
    );
    installI18n('en');
    expect(questionText({ name: 'PET_OWNER', text: '' })).toBe('Pet owner');
  });

  it('every language has every profile word: each vocabulary spelling gives a label from the page’s own file', () => {
    for (const locale of ['ar', 'de', 'es', 'fr', 'it', 'ja', 'nl', 'pl', 'pt_BR']) {
      installI18n(locale);
      for (const name of [
        'FIRST_NAME',
        'LAST_NAME',
        'GENDER',
        'COUNTRY',
        'CITY',
        'EMAIL',
        'PHONE',
        'EDUCATION',
        'EMPLOYMENT',
        'INCOME',
        'HOUSEHOLD_SIZE',
        'MARITAL_STATUS',
      ]) {
        installI18n('en');
        const english = questionText({ name, text: '' });
        installI18n(locale);
        expect(questionText({ name, text: '' }), `${locale} ${name}`).not.toBe(english);
      }
    }
  });
});
