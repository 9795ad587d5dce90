import { tp, t } from '../../utils/i18n';
import { sendMessage } from '../../utils/messages';
import { draftDiscardedItem, sessionItem } from '../../utils/storage-items';
import { useStorageItem } from '../../utils/use-storage-item';

/**
 * Says that connecting another account discarded unsaved profile edits made for the previous one
 * (the background sets the item, so one account's edits never reach another), until the panelist dismisses it.
 */
export function DraftDiscardedNotice({ onDismissed }: { onDismissed(): void }) {
  const notice = useStorageItem(draftDiscardedItem);
  const session = useStorageItem(sessionItem);
  const count = notice.value?.count ?? 0;
  if (count <= 0) return null;
  return (
    <div class="notice" role="status">
      <p>{tp('draftDiscarded', count)}</p>
      <button
        type="button"
        onClick={() => {
          // Session data: the background removes it, for the session the notice was shown in.
          const id = session.value?.id;
          if (id) void sendMessage('dismissDraftNotice', { session: id }).catch(() => undefined);
          // The button goes with the notice: keyboard focus stays in the section.
          onDismissed();
        }}
      >
        {t('dismissNotice')}
      </button>
    </div>
  );
}
