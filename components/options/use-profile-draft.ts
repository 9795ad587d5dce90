import { useSignal, type Signal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { sendMessage } from '../../utils/messages';
import type { Request } from '../../utils/message-schemas';
import { storage } from '../../utils/storage-item';
import { profileDraftItem, sessionItem } from '../../utils/storage-items';
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

/**
 * The profile draft, kept in extension storage so edits outlive the page (issue 4). The draft is
 * session data, so the page never writes it: each edit goes to the background with the session it
 * was typed under (background/draft.ts), which merges it in its own turn and refuses it after a
 * switch. Edits show at once, so typing is never slowed by the round trip; while edits of this page
 * are on their way, what storage says is not adopted (it would briefly show an older draft), and
 * once none is, the stored draft, with any other page's edits and the background's clearing on a
 * switch, is.
 */
export function useProfileDraft(): ProfileDraft {
  const draft = useSignal<StoredValues | undefined>(undefined);
  /** The session the shown draft belongs to; edits are sent under it. */
  const session = useRef<string | undefined>(undefined);
  const inFlight = useRef(0);

  function adoptStored(): void {
    // One read of both: a switch writes them together, so the draft and its session always match.
    void storage()
      .local.get([profileDraftItem.key, sessionItem.key])
      .then((stored) => {
        if (inFlight.current > 0) return;
        session.current = sessionItem.fromStored(stored[sessionItem.key]).id;
        draft.value = profileDraftItem.fromStored(stored[profileDraftItem.key]);
      });
  }

  useEffect(() => {
    adoptStored();
    const unwatchDraft = profileDraftItem.watch(() => {
      if (inFlight.current === 0) adoptStored();
    });
    // A switch empties the draft in the same write; until the draft is read again, no edit goes out
    // under a session whose draft is not the one shown.
    const unwatchSession = sessionItem.watch((info) => {
      if (info?.id !== session.current) session.current = undefined;
      if (inFlight.current === 0) adoptStored();
    });
    return () => {
      unwatchDraft();
      unwatchSession();
    };
  }, []);

  function send(next: StoredValues, edit: Omit<Request<'editDraft'>, 'session'>): void {
    draft.value = next;
    const sid = session.current;
    if (!sid) return;
    inFlight.current += 1;
    void sendMessage('editDraft', { session: sid, ...edit })
      .catch(() => undefined)
      .finally(() => {
        inFlight.current -= 1;
        // A refused edit (its session ended) or another page's edit meanwhile: storage says which.
        if (inFlight.current === 0) adoptStored();
      });
  }

  return {
    draft,
    set(name, value, stored) {
      const next = { ...(draft.value ?? {}) };
      const unchanged = valuesEqual(value, stored);
      if (unchanged) delete next[name];
      else next[name] = value;
      send(next, { changes: { [name]: unchanged ? null : value } });
    },
    forget(names) {
      if (!names) return send({}, { changes: {}, clear: true });
      const next = { ...(draft.value ?? {}) };
      for (const name of names) delete next[name];
      send(next, { changes: Object.fromEntries(names.map((name) => [name, null])) });
    },
  };
}
