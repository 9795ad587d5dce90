import { browser } from 'wxt/browser';
import { compactPoints } from '../../utils/format';
import { preferencesItem, rewardsItem, sessionItem } from '../../utils/storage-items';

// Firefox's MV2 build has browserAction where Chrome's MV3 has action.
const action = browser.action ?? (browser as unknown as { browserAction: typeof browser.action }).browserAction;

/** The badge shows the balance, compact; empty when not connected, unknown, or turned off. */
export async function updateBadge(): Promise<void> {
  const [session, rewards, prefs] = await Promise.all([sessionItem.getValue(), rewardsItem.getValue(), preferencesItem.getValue()]);
  const points = rewards?.data.balance.points;
  const text = session.connected && prefs.badge && typeof points === 'number' ? compactPoints(points) : '';
  await action.setBadgeText({ text });
  if (text) await action.setBadgeBackgroundColor({ color: session.rejected ? '#8a5300' : '#176b35' });
}

export function watchBadge(): void {
  const update = () => void updateBadge().catch(() => undefined);
  rewardsItem.watch(update);
  sessionItem.watch(update);
  preferencesItem.watch(update);
}
