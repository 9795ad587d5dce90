import { useSignal, type Signal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { profileDraftItem } from '../../utils/storage-items';
import type { StoredValues, VariableValue } from '../../utils/types';
import { valuesEqual } from '../../utils/variable-values';

export interface ProfileDraft {
  /** Unsaved edits by variable name; undefined until the stored draft has been read. */
  draft: Signal<StoredValues | undefined>;
  /** Records an edit; an edit back to the stored value is no edit at all. */
  set(name: string, value: VariableValue, stored: VariableValue | undefined): void;
  /** Forgets the edits of these names (saved or cleared), or all of them. */
  forget(names?: readonly string[]): void;
}

/** Key order can differ between what was written and what storage echoes back. */
function fingerprint(values: StoredValues): string {
  return JSON.stringify(Object.keys(values).sort().map((k) => [k, values[k]]));
}

/**
 * The profile draft, kept in extension storage so edits outlive the page (issue 4). Edits are
 * applied locally at once, so typing is never slowed or reverted by storage round trips; a change
 * made elsewhere (another options tab, the background clearing data on disconnect) is adopted.
 */
export function useProfileDraft(): ProfileDraft {
  const draft = useSignal<StoredValues | undefined>(undefined);
  // Fingerprints of our own writes not yet echoed back: their echo must not overwrite newer edits.
  const pending = useRef<string[]>([]);

  useEffect(() => {
    let live = true;
    const unwatch = profileDraftItem.watch((next) => {
      const value = next ?? {};
      const at = pending.current.indexOf(fingerprint(value));
      if (at >= 0) {
        pending.current.splice(0, at + 1);
        return;
      }
      draft.value = value;
    });
    void profileDraftItem.getValue().then((first) => {
      if (live && draft.value === undefined) draft.value = first ?? {};
    });
    return () => {
      live = false;
      unwatch();
    };
  }, []);

  function write(next: StoredValues): void {
    const print = fingerprint(next);
    // Storage announces no change for an unchanged value, so such a write would leave an echo
    // expected forever and a later real change with the same content would be ignored.
    if (draft.value && fingerprint(draft.value) === print) return;
    draft.value = next;
    pending.current.push(print);
    void profileDraftItem.setValue(next);
  }

  return {
    draft,
    set(name, value, stored) {
      const next = { ...(draft.value ?? {}) };
      if (valuesEqual(value, stored)) delete next[name];
      else next[name] = value;
      write(next);
    },
    forget(names) {
      if (!names) return write({});
      const next = { ...(draft.value ?? {}) };
      for (const name of names) delete next[name];
      write(next);
    },
  };
}
