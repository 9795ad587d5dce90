import type { Page } from 'playwright-core';
import type { Page as FirefoxPage } from 'puppeteer-core';
import { HELD } from '../../components/popup/first-frame/early-clicks';

/**
 * Runs in the page: whether the popup is the app's, not its first frame. The first frame paints the
 * first rows only (FIRST_FRAME_ROWS) and none of what loads with Preact, so a test that reads the
 * rows, the whole page or a picture waits for the app. The first frame holds early clicks under
 * `held` from the task that paints its main until Preact's first render releases them
 * (early-clicks.ts): a main with none held is the app's. No refresh is running either (`aria-busy`).
 */
function appSettled(held: string): boolean {
  return !!document.querySelector('main') && !(held in window) && !document.querySelector('main[aria-busy="true"]');
}

/** Waits until Preact has taken the popup over from its first frame and no refresh is running. */
export function popupSettled(page: Page): Promise<unknown> {
  return page.waitForFunction(appSettled, HELD);
}

/** The same in Firefox, driven by Puppeteer, which takes the page's arguments after its options. */
export function popupSettledIn(page: FirefoxPage): Promise<unknown> {
  return page.waitForFunction(appSettled, {}, HELD);
}
