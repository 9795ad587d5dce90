import { browser } from 'wxt/browser';
import { direction, t } from '../../../utils/i18n';
import { notifies } from '../../../utils/preference-choices';
import { isolateFigures } from '../../../utils/qty';
import { questionText } from '../../../utils/question-text';
import { describeState } from '../../../utils/redemption-state';
import type { StorageItem } from '../../../utils/storage-item';
import { notifyStateItem, preferencesItem, type NotifyState } from '../../../utils/storage-items';
import { recordedAgainText } from '../../../utils/recorded-again';
import { settings } from '../../../utils/settings';
import { preferenceOf, type NotifyEvent } from './notify-events';
import { put, update, whileActive, type Get, type Put, type SessionId, type TurnEffects } from '../store/store';

/** Told events kept, so an event seen again after a restart is recognised. */
const TOLD_KEPT = 500;
export const NOTIFICATION_PERMISSION = { permissions: ['notifications' as const] };

/** What one write of a session changes, and what it has to tell the panelist. */
export interface Telling {
  puts?: readonly Put[];
  events?: readonly NotifyEvent[];
  /** The notification state's own part that changes with it (what the last read saw). */
  state?: Partial<Omit<NotifyState, 'told'>>;
}

/**
 * Writes what `change` makes of `items` for session `sid` and records its events as told in the
 * same `storage.local.set`, then shows those the panelist asked for. Recorded with the change that
 * caused them and whatever the preferences: a change seen while notifications were off is not told
 * later, one told before the worker stopped is not told again, and an event of an ended session is
 * neither recorded nor shown (the write is refused).
 */
export async function writeAndNotify(
  sid: SessionId,
  items: ReadonlyArray<StorageItem<unknown>>,
  change: (get: Get) => Telling | null,
  effects?: TurnEffects,
): Promise<void> {
  let fresh: NotifyEvent[] = [];
  await update(
    sid,
    [...items, notifyStateItem],
    (get) => {
      const telling = change(get);
      if (!telling) return [];
      const state = get(notifyStateItem);
      fresh = (telling.events ?? []).filter((event) => !state.told.includes(event.id));
      const recorded = fresh.length > 0 || telling.state !== undefined;
      const told = [...state.told, ...fresh.map((event) => event.id)].slice(-TOLD_KEPT);
      return [
        ...(telling.puts ?? []),
        ...(recorded ? [put(notifyStateItem, { ...state, ...telling.state, told })] : []),
      ];
    },
    effects,
  );
  if (fresh.length === 0) return;
  const prefs = await preferencesItem.getValue();
  // Shown in a turn of the writer while the session that recorded it is still the active one: an
  // event of an account that was just left is never put on screen for the next one.
  for (const event of fresh)
    if (notifies(prefs, preferenceOf(event))) await whileActive(sid, () => show(event)).catch(() => undefined);
}

/**
 * Clears every notification the extension has on screen: after a switch none of them is the new
 * session's to show (another account's "PayWave $10 Transfer: Failed" must not stay).
 */
export async function clearShown(): Promise<void> {
  const api = browser.notifications;
  if (!api) return;
  const shown = await api.getAll().catch(() => ({}));
  await Promise.all(Object.keys(shown).map((id) => api.clear(id).catch(() => false)));
}

async function show(event: NotifyEvent): Promise<void> {
  const api = browser.notifications;
  if (!api || !(await browser.permissions.contains(NOTIFICATION_PERMISSION))) return;
  const { title, message } = words(event);
  // Text without markup: in a right-to-left language each figure is isolated, or a currency or a
  // count in a reward's name would be laid out apart from its amount (utils/qty.ts).
  const dir = direction();
  await api.create(event.id, {
    type: 'basic',
    iconUrl: browser.runtime.getURL('/icon/128.png'),
    title: isolateFigures(title, dir),
    message: isolateFigures(message, dir),
  });
}

/** Titles and texts in the browser's language. */
export function words(event: NotifyEvent): { title: string; message: string } {
  switch (event.kind) {
    case 'redemption':
      return {
        title: t('notifyRedemptionTitle'),
        message: t('notifyRedemptionText', event.rewardName, describeState(event.state)),
      };
    case 'outcome':
      if (event.found) return { title: t('notifyFoundTitle'), message: t('notifyFoundText', event.rewardName) };
      return {
        title: t('notifyNotFoundTitle'),
        message:
          event.notFound === 'points-taken'
            ? t('notifyNotFoundPointsTakenText', event.rewardName, settings.panelName)
            : event.notFound === 'said-yes'
              ? t('notifyNotFoundSaidYesText', event.rewardName, settings.panelName)
              : event.notFound === 'balance-unread'
                ? t('notifyNotFoundBalanceUnreadText', event.rewardName)
                : t('notifyNotFoundText', event.rewardName),
      };
    case 'duplicate':
      return {
        title: t('notifyDuplicateTitle', event.rewardName),
        message: recordedAgainText(event.copies, event.points),
      };
    case 'goal':
      return { title: t('notifyGoalTitle'), message: t('notifyGoalText', event.rewardName) };
    case 'rejected':
      if (event.signedIn) return { title: t('notifyRejectedSignInTitle'), message: t('notifyRejectedSignInText') };
      return { title: t('notifyRejectedTitle'), message: t('notifyRejectedText') };
    case 'question':
      return { title: t('notifyQuestionTitle'), message: t('notifyQuestionText', questionText(event)) };
  }
}
