interface Props {
  changes: number;
  saving: boolean;
  canDiscard: boolean;
  onDiscard(): void;
}

export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The dirty indicator with Save and Discard; it stays in view while a long profile scrolls. */
export function SaveBar({ changes, saving, canDiscard, onDiscard }: Props) {
  return (
    <div class="save-bar">
      <span class={changes ? 'dirty' : 'clean'}>
        {changes ? plural(changes, 'unsaved change', 'unsaved changes') : 'No unsaved changes'}
      </span>
      <span class="actions">
        <button type="button" disabled={!canDiscard || saving} onClick={onDiscard}>
          Discard changes
        </button>
        <button type="submit" class="primary" disabled={!changes || saving}>
          {saving ? 'Saving…' : 'Save changes'}
        </button>
      </span>
    </div>
  );
}
