import { browser } from 'wxt/browser';
import { defineBackground } from 'wxt/utils/define-background';
import type { Redemption } from '../../utils/types';
import { AWAY_AFTER_SECONDS, ensureRefreshScheduled, onIdleStateChanged, onRefreshAlarm } from './schedule/alarms';
import { restoreBadge, watchBadge } from './notify/badge';
import { watchBalance } from './balance-history';
import { watchNewQuestions } from './profile/new-questions';
import { watchNotifications } from './notify/notifications';
import { registerHandlers } from './handlers';
import { settleHostAccess } from './session/host-access';
import { ensurePopupView } from './popup-view';
import { recoverAfterStop } from './recover';
import { checkOutcomes, onCheckAlarm } from './redemption/service';
import { onStored } from './store/stored-reads';
import { onInstalledWelcome } from './welcome';

export default defineBackground(() => {
  // Listeners first and synchronously: a worker woken by a message or an alarm must find them.
  registerHandlers();
  browser.alarms.onAlarm.addListener((alarm) => void onRefreshAlarm(alarm));
  browser.alarms.onAlarm.addListener((alarm) => void onCheckAlarm(alarm));
  browser.idle.setDetectionInterval(AWAY_AFTER_SECONDS);
  browser.idle.onStateChanged.addListener((state) => void onIdleStateChanged(state));
  watchBadge();
  watchBalance();
  watchNotifications();
  watchNewQuestions();
  // Any history read (a page's refresh, the refresh alarm) may show a redemption whose answer was
  // lost: checked against the outcomes of the session that read it, only while it is the active one.
  onStored(
    (area, data, sid) =>
      void (area === 'history' && checkOutcomes(null, { sid, history: data as Redemption[] }).catch(() => undefined)),
  );
  // No page can be half-way through Connect when the browser or the extension starts: what a page
  // was granted and never used is given back (host-access.ts).
  browser.runtime.onStartup.addListener(() => void settleHostAccess());
  browser.runtime.onInstalled.addListener(() => void settleHostAccess());
  // A popup view an earlier version wrote is brought to this version's shape once, when it is installed.
  browser.runtime.onInstalled.addListener(() => void ensurePopupView());
  // A new install opens the welcome, once (welcome.ts).
  browser.runtime.onInstalled.addListener((details) => void onInstalledWelcome(details));

  // Each start does only what a stopped worker can have left undone: the browser keeps the badge
  // and the alarms while it runs, so they are read, not rebuilt (badge.ts, alarms.ts).
  void ensureRefreshScheduled();
  void restoreBadge();
  void recoverAfterStop();
});
