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
  return type === 'date' ? <input type="date" {...common} /> : <input type="text" {...common} />;
}
