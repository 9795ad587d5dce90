import { useSignal, type Signal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { byName, entriesOf, withName, without } from '../../utils/by-name';
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
  /** The session the shown draft was typed under (saves are sent under it); undefined until read. */
  session(): string | undefined;
}

/**
 * The profile draft, kept in extension storage so edits outlive the page. The draft is
 * session data, so the page never writes it: each edit goes to the background with the session it
 * was typed under (background/draft.ts), which merges it in its own turn and refuses it after a
 * switch. Edits show at once, so typing is never slowed by the round trip; while edits of this page
 * are on their way or could not be sent, what storage says is not adopted (it would show an older
 * draft, or lose what was typed), and once none is, the stored draft, with any other page's edits
 * and the background's clearing on a switch, is.
 */
export function useProfileDraft(): ProfileDraft {
  const draft = useSignal<StoredValues | undefined>(undefined);
  /** The session the shown draft belongs to; edits are sent under it. */
  const session = useRef<string | undefined>(undefined);
  const inFlight = useRef(0);
  /**
   * Edits the background could not take (no answer, storage full): kept on screen and sent again
   * with the next edit or shortly, never dropped for what storage still says. Null: none.
   */
  const unsent = useRef<Omit<Request<'editDraft'>, 'session'> | null>(null);
  const retry = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const busy = () => inFlight.current > 0 || unsent.current !== null;

  function adoptStored(): void {
    // One read of both: a switch writes them together, so the draft and its session always match.
    void storage()
      .local.get([profileDraftItem.key, sessionItem.key])
      .then((stored) => {
        if (busy()) return;
        session.current = sessionItem.fromStored(stored[sessionItem.key]).id;
        draft.value = profileDraftItem.fromStored(stored[profileDraftItem.key]);
      });
  }

  useEffect(() => {
    adoptStored();
    const unwatchDraft = profileDraftItem.watch(() => {
      if (!busy()) adoptStored();
    });
    // A switch empties the draft in the same write; until the draft is read again, no edit goes out
    // under a session whose draft is not the one shown, and what was not sent was the old account's.
    const unwatchSession = sessionItem.watch((info) => {
      if (info?.id !== session.current) {
        session.current = undefined;
        unsent.current = null;
      }
      if (!busy()) adoptStored();
    });
    return () => {
      clearTimeout(retry.current);
      unwatchDraft();
      unwatchSession();
    };
  }, []);

  /** Sends `edit`, with whatever earlier edits could not be sent, under the draft's session. */
  function flush(edit: Omit<Request<'editDraft'>, 'session'>, tries = 0): void {
    const sid = session.current;
    if (!sid) return;
    const earlier = unsent.current;
    unsent.current = null;
    const sending = {
      changes: byName([...entriesOf(earlier?.changes), ...entriesOf(edit.changes)]),
      ...(earlier?.clear || edit.clear ? { clear: true as const } : {}),
    };
    inFlight.current += 1;
    void sendMessage('editDraft', { session: sid, ...sending })
      .then((reply) => (reply.ok || reply.error.kind === 'not_connected' ? null : sending))
      .catch(() => sending)
      .then((failed) => {
        inFlight.current -= 1;
        // Its session ended: the edit was that account's, and storage holds the next one's draft.
        if (!failed || sid !== session.current) return;
        const later = unsent.current;
        unsent.current = {
          changes: byName([...entriesOf(failed.changes), ...entriesOf(later?.changes)]),
          ...(failed.clear || later?.clear ? { clear: true as const } : {}),
        };
        if (tries < 3) {
          clearTimeout(retry.current);
          retry.current = setTimeout(() => unsent.current && flush({ changes: {} }, tries + 1), 1000 * 2 ** tries);
        }
      })
      .finally(() => {
        // Another page's edit meanwhile, or a refused one: storage says what the draft is now.
        if (!busy()) adoptStored();
      });
  }

  function send(next: StoredValues, edit: Omit<Request<'editDraft'>, 'session'>): void {
    draft.value = next;
    flush(edit);
  }

  return {
    draft,
    session: () => session.current,
    set(name, value, stored) {
      const unchanged = valuesEqual(value, stored);
      const next = unchanged ? without(draft.value, [name]) : withName(draft.value, name, value);
      send(next, { changes: byName([[name, unchanged ? null : value]]) });
    },
    forget(names) {
      if (!names) return send(byName(), { changes: byName(), clear: true });
      send(without(draft.value, names), { changes: byName(names.map((name) => [name, null])) });
    },
  };
}
