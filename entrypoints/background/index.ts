import { browser } from 'wxt/browser';
import { defineBackground } from 'wxt/utils/define-background';
import { ensureRefreshScheduled, onRefreshAlarm } from './alarms';
import { updateBadge, watchBadge } from './badge';
import { registerHandlers } from './handlers';
import { historyItem } from '../../utils/storage-items';
import { reconcilePendingRedemption, settleUnknownFrom } from './redeem';

export default defineBackground(() => {
  // Listeners first and synchronously: a worker woken by a message or an alarm must find them.
  registerHandlers();
  browser.alarms.onAlarm.addListener((alarm) => void onRefreshAlarm(alarm));
  watchBadge();
  historyItem.watch((history) => void (history && settleUnknownFrom(history.data)));

  void ensureRefreshScheduled();
  void updateBadge();
  void reconcilePendingRedemption();
});
