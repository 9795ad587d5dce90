/** Synthesized profile variables (and stored values for most of them) for scaled seeds. */
import type { VariableDefinition, VariableOption, VariableValue } from '../../utils/types';
import type { Random } from './random';

interface VariableTemplate {
  name: string;
  /** Omitted when the question text equals the name, which the interface allows. */
  text?: string;
  type: string;
  writable: boolean;
  /** Option labels; one ending in "*" is exclusive. */
  options?: string[];
}

// Every type the seed uses, writable and not, so scale keeps the seed's mix.
const TEMPLATES: VariableTemplate[] = [
  { name: 'CITY', text: 'Which city do you live in?', type: 'text', writable: true },
  { name: 'LAST_PURCHASE_DATE', text: 'When did you last buy something online?', type: 'date', writable: true },
  {
    name: 'STREAMING_SERVICES',
    text: 'Which streaming services do you use?',
    type: 'checkbox',
    writable: true,
    options: ['Video on demand', 'Music', 'Podcasts', 'Live sport', 'None of these*'],
  },
  {
    name: 'HOUSEHOLD_SIZE',
    text: 'How many people live in your household?',
    type: 'radio',
    writable: true,
    options: ['1', '2', '3', '4', '5 or more'],
  },
  {
    name: 'INCOME_BAND',
    text: 'What is your yearly household income?',
    type: 'select',
    writable: true,
    options: ['Under 25k', '25k–50k', '50k–100k', 'Over 100k', 'Prefer not to say'],
  },
  { name: 'JOB_TITLE', type: 'text', writable: true },
  { name: 'SIGNUP_CHANNEL', text: 'Sign-up channel', type: 'text', writable: false },
  {
    name: 'ACCOUNT_TIER',
    text: 'Panel membership tier',
    type: 'radio',
    writable: false,
    options: ['Bronze', 'Silver', 'Gold'],
  },
  {
    name: 'PETS',
    text: 'Which pets live with you?',
    type: 'checkbox',
    writable: true,
    options: ['Dog', 'Cat', 'Fish', 'Bird', 'No pets*'],
  },
  { name: 'SMOKER', text: 'Do you smoke?', type: 'radio', writable: true, options: ['Yes', 'No', 'Prefer not to say'] },
];

export function synthesizeVariable(id: number, index: number, random: Random): VariableDefinition {
  const template = TEMPLATES[index % TEMPLATES.length] as VariableTemplate;
  // Names must stay unique; the round number keeps them readable.
  const name = `${template.name}_${Math.floor(index / TEMPLATES.length) + 1}`;
  const options: VariableOption[] = (template.options ?? []).map((label, position) => {
    const exclusive = label.endsWith('*');
    const text = exclusive ? label.slice(0, -1) : label;
    // Unique across variables: the variable id followed by two digits.
    return { id: id * 100 + position + 1, name: text.toUpperCase().replace(/[^A-Z0-9]+/g, '_'), text, exclusive };
  });
  return {
    id,
    name,
    text: template.text ?? name,
    uuid: random.uuid(),
    type: template.type,
    writable: template.writable,
    options,
  };
}

/** A valid stored value for the definition, or undefined to leave it unanswered. */
export function synthesizeValue(definition: VariableDefinition, random: Random): VariableValue | undefined {
  if (random.next() < 0.3) return undefined;
  if (definition.type === 'date') {
    return `${random.int(2019, 2024)}-${pad(random.int(1, 12))}-${pad(random.int(1, 28))}`;
  }
  if (definition.options.length === 0) return `Answer ${definition.id}`;
  if (definition.type !== 'checkbox') return random.pick(definition.options).id;
  const plain = definition.options.filter((option) => !option.exclusive);
  return plain.filter(() => random.next() < 0.5).map((option) => option.id);
}

const pad = (value: number): string => String(value).padStart(2, '0');
