import { browser } from 'wxt/browser';
import { defineBackground } from 'wxt/utils/define-background';

/** Answers any message as the real background answers `getSession` (@webext-core/messaging's shape), and takes alarms. */
export default defineBackground(() => {
  browser.runtime.onMessage.addListener(() => Promise.resolve({ res: { ok: true, data: null } }));
  browser.alarms.onAlarm.addListener(() => undefined);
});
