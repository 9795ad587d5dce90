import { DATE_YEARS } from '../../utils/variable-values';

interface Props {
  id: string;
  value: string;
  type: 'text' | 'date';
  describedBy: string | undefined;
  invalid: boolean;
  onChange(value: string): void;
}

/** A free-form answer: text, or a date the browser's picker writes as `YYYY-MM-DD`. */
export function TextEditor({ id, value, type, describedBy, invalid, onChange }: Props) {
  const common = {
    id,
    class: 'input',
    value,
    'aria-describedby': describedBy,
    'aria-invalid': invalid || undefined,
    onInput: (e: { currentTarget: HTMLInputElement }) => onChange(e.currentTarget.value),
  };
  return type === 'date' ? (
    <input type="date" min={`${DATE_YEARS.min}-01-01`} max={`${DATE_YEARS.max}-12-31`} {...common} />
  ) : (
    <input type="text" {...common} />
  );
}
