import { byName, entriesOf } from '../../../utils/by-name';
import type { Request } from '../../../utils/message-schemas';
import { draftDiscardedItem, profileDraftItem } from '../../../utils/storage-items';
import { put, update } from '../store/store';

/**
 * The unsaved profile draft is session data, so only the background writes it, for the session the
 * page's edit was made under (store.ts): a keystroke that lands after a switch is refused, never
 * put into the next account's draft. Each edit is merged into the draft as the writer's turn reads
 * it, so two pages editing at once both keep their edits.
 */
export function editDraft({ session, changes, clear }: Request<'editDraft'>): Promise<void> {
  return update(session, [profileDraftItem], (get) => {
    // Null-prototype (utils/by-name.ts): a question named `__proto__` is an answer, never the draft's prototype.
    const draft = byName(clear ? [] : entriesOf(get(profileDraftItem)));
    for (const [name, value] of entriesOf(changes)) {
      if (value === null) delete draft[name];
      else draft[name] = value;
    }
    return [put(profileDraftItem, draft)];
  });
}

/** The notice that a switch discarded unsaved edits has been read: it goes, for its own session only. */
export function dismissDraftNotice({ session }: Request<'dismissDraftNotice'>): Promise<void> {
  return update(session, [], () => [put(draftDiscardedItem, null)]);
}
