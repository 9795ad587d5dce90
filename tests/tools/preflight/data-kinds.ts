/**
 * The kinds of personal data the panel's profile questions really ask, against what the build
 * declares (`profileData`, which becomes the Firefox manifest's data_collection_permissions and
 * SUBMIT.md's Chrome answers). A question is judged by its variable name and its text, in the
 * languages the extension ships: a question that asks a postal code is location data whatever the
 * panel calls it. Every question is personally identifying information, which is always declared.
 */
import type { VariableDefinition } from '../../../utils/types';
import type { PROFILE_DATA_TYPES } from '../../../utils/build/operator/settings-table';

type Kind = Exclude<(typeof PROFILE_DATA_TYPES)[number], 'personallyIdentifyingInfo'>;

/** Words that make a question one of these kinds (lower case; matched within words, so ZIP_CODE and "zip code" both count). */
const WORDS: Record<Kind, string[]> = {
  locationInfo: [
    'postal',
    'postcode',
    'post code',
    'zip',
    'home address',
    'street',
    'mailing address',
    'city',
    'town',
    'region',
    'province',
    'county',
    'country',
    'location',
    'where do you live',
    'latitude',
    'longitude',
    'postleitzahl',
    'plz',
    'wohnort',
    'anschrift',
    'bundesland',
    'code postal',
    'ville',
    'région',
    'código postal',
    'ciudad',
    'provincia',
    'codice postale',
    'città',
    'cidade',
    'woonplaats',
    'kod pocztowy',
    'miasto',
    'województwo',
    '郵便番号',
    '都道府県',
    '住所',
    'الرمز البريدي',
    'المدينة',
  ],
  healthInfo: [
    'health',
    'medical',
    'illness',
    'disease',
    'diagnos',
    'medication',
    'medicine',
    'pregnan',
    'disabilit',
    'smok',
    'allerg',
    'diabet',
    'blood pressure',
    'bmi',
    'gesundheit',
    'krankheit',
    'santé',
    'maladie',
    'salud',
    'enfermedad',
    'salute',
    'malattia',
    'saúde',
    'doença',
    'gezondheid',
    'zdrowie',
    'choroba',
    '健康',
    '病気',
    'صحة',
  ],
  financialAndPaymentInfo: [
    'income',
    'salary',
    'wage',
    'earnings',
    'bank',
    'credit card',
    'debt',
    'loan',
    'mortgage',
    'savings',
    'invest',
    'net worth',
    'einkommen',
    'gehalt',
    'revenu',
    'salaire',
    'ingresos',
    'sueldo',
    'reddito',
    'stipendio',
    'renda',
    'salário',
    'inkomen',
    'salaris',
    'dochód',
    'zarobki',
    '収入',
    '年収',
    'الدخل',
  ],
};

export const KIND_WORDS: Record<Kind, string> = {
  locationInfo: 'where the panelist lives (postal code, city, region, country)',
  healthInfo: 'health',
  financialAndPaymentInfo: 'finances (income, savings, loans)',
};

/**
 * Whether `text` holds `word`: a word in Latin letters only where one starts (so "smok" finds
 * "smoking" but "bmi" not "submit"), any other script anywhere (Japanese writes no spaces).
 */
function mentions(text: string, word: string): boolean {
  if (!/^[a-z ]+$/.test(word)) return text.includes(word);
  return new RegExp(`[^\\p{L}]${word}`, 'u').test(text);
}

/** Each kind the questions ask, with the questions that ask it (by variable name). */
export function askedKinds(questions: Pick<VariableDefinition, 'name' | 'text'>[]): Map<Kind, string[]> {
  const found = new Map<Kind, string[]>();
  for (const question of questions) {
    const said = ` ${question.name.replace(/_/g, ' ')} ${question.text}`.toLowerCase();
    for (const [kind, words] of Object.entries(WORDS) as [Kind, string[]][]) {
      if (words.some((word) => mentions(said, word))) found.set(kind, [...(found.get(kind) ?? []), question.name]);
    }
  }
  return found;
}

export interface KindCheck {
  /** Kinds a question asks that profileData does not declare: the stores are told less than is sent. */
  undeclared: { kind: Kind; questions: string[] }[];
  /** Kinds profileData declares that no question asks: panelists are asked to agree to more than is sent. */
  unasked: Kind[];
}

export function compareKinds(questions: Pick<VariableDefinition, 'name' | 'text'>[], profileData: string): KindCheck {
  const declared = new Set(profileData.split(' ').filter(Boolean));
  const asked = askedKinds(questions);
  return {
    undeclared: [...asked].filter(([kind]) => !declared.has(kind)).map(([kind, names]) => ({ kind, questions: names })),
    unasked: (Object.keys(WORDS) as Kind[]).filter((kind) => declared.has(kind) && !asked.has(kind)),
  };
}
