import type { MessageKey } from './i18n';

/**
 * The words profile questions are named with, when a panel sends only a machine name
 * (`POSTAL_CODE`, `dateOfBirth`, `PANELIST_COUNTRY`): each common one, with the other spellings
 * panels use for it, is a message, so the label is written in the page's language (never
 * "Postal code" on a German page). Keys are the name's words, lower case, joined by one space.
 */
const WORDS = new Map<string, MessageKey>();

function words(key: MessageKey, ...names: string[]): void {
  for (const name of names) WORDS.set(name, key);
}

words('wordPostalCode', 'postal code', 'postcode', 'post code', 'zip', 'zip code', 'zipcode', 'plz');
words('wordFirstName', 'first name', 'firstname', 'given name', 'forename');
words('wordLastName', 'last name', 'lastname', 'surname', 'family name');
words('wordFullName', 'name', 'full name', 'fullname');
words('wordBirthDate', 'birth date', 'birthdate', 'date of birth', 'dob', 'birthday', 'birth day');
words('wordBirthYear', 'birth year', 'year of birth', 'yob', 'year born');
words('wordAge', 'age');
words('wordGender', 'gender', 'sex');
words('wordCountry', 'country', 'country of residence', 'residence country', 'country code');
words('wordRegion', 'state', 'region', 'province', 'county');
words('wordCity', 'city', 'town');
words('wordAddress', 'address', 'street address', 'street');
words('wordEmail', 'email', 'e mail', 'email address', 'mail');
words('wordPhone', 'phone', 'phone number', 'telephone', 'mobile', 'mobile phone', 'mobile number', 'cell phone');
words('wordEducation', 'education', 'education level', 'highest education');
words('wordEmployment', 'employment', 'employment status', 'work status');
words('wordOccupation', 'occupation', 'job', 'job title', 'profession');
words('wordIncome', 'income', 'personal income', 'annual income');
words('wordHouseholdIncome', 'household income', 'hh income');
words('wordHouseholdSize', 'household', 'household size', 'hh size', 'people in household');
words('wordMaritalStatus', 'marital status', 'relationship status');
words('wordChildren', 'children', 'kids', 'number of children', 'children in household');
words('wordLanguage', 'language', 'preferred language');
words('wordIndustry', 'industry', 'sector');

/** Words before a name that only say whose it is: `PANELIST_COUNTRY` is the country. */
const OWNER = new Set(['panelist', 'panel', 'member', 'respondent', 'my', 'your', 'profile']);

/** The message naming the profile word `words` (a machine name split into lower-case words), or null. */
export function profileWord(words: readonly string[]): MessageKey | null {
  let at = 0;
  while (at < words.length - 1 && OWNER.has(words[at]!)) at++;
  // A Map: a question named `constructor` finds no word, not Object's constructor.
  return WORDS.get(words.slice(at).join(' ')) ?? null;
}
