/**
 * A new install opens the extension's welcome once (entrypoints/background/welcome.ts). A browser
 * launched on a fresh profile is such an install: the tests, the screenshots and the benchmarks
 * connect on that tab or close it once it is there, as a panelist would, so it neither shares the
 * browser with what they measure nor sends the panel requests of its own once connected.
 * tests/e2e/welcome.test.ts keeps it and checks it.
 */
import type { BrowserContext, Page } from 'playwright-core';
import type { Browser as FirefoxBrowser, Page as FirefoxPage } from 'puppeteer-core';
import type Browser from 'webextension-polyfill';

/** The welcome's address as the background opens it, without the extension's origin. */
export const WELCOME_PAGE = '/options.html#welcome';

// The house's one deadline (tests/e2e/README.md): a busy machine opens the tab late, never a shorter wait.
const WAIT_MS = 30_000;

/** The welcome tab of the extension at `origin`, once the browser has it at its address. */
export async function welcomeTab(context: BrowserContext, origin: string): Promise<Page> {
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    const page = context.pages().find((p) => p.url() === origin + WELCOME_PAGE);
    if (page) return page;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the install opened no welcome tab at ${origin + WELCOME_PAGE} within ${WAIT_MS} ms`);
}

/** Closes the install's welcome tab in Chromium. */
export async function closeWelcome(context: BrowserContext, extensionId: string): Promise<void> {
  await (await welcomeTab(context, `chrome-extension://${extensionId}`)).close();
}

/** How long one tab is given to say where it is: one that hangs must not hold the wait past its deadline. */
const ASK_MS = 5_000;

/** Where one tab is, or why it does not say. */
function askWhere(page: FirefoxPage): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    page.evaluate(() => location.href).catch((error: unknown) => `(${String(error).split('\n')[0]})`),
    new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`(no answer in ${ASK_MS} ms)`), ASK_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Firefox's tabs and where each is (puppeteer over WebDriver BiDi). Firefox never reports a
 * moz-extension:// navigation to BiDi (firefox-harness.ts), so each tab is asked where it is; one
 * that cannot answer says why instead.
 */
async function firefoxTabs(browser: FirefoxBrowser): Promise<{ pages: FirefoxPage[]; where: string[] }> {
  const pages = await browser.pages();
  const where = await Promise.all(pages.map((page) => askWhere(page)));
  return { pages, where };
}

/** Firefox's tabs at the welcome's address. */
export async function firefoxWelcomes(browser: FirefoxBrowser, origin: string): Promise<FirefoxPage[]> {
  const { pages, where } = await firefoxTabs(browser);
  return pages.filter((_, i) => where[i] === origin + WELCOME_PAGE);
}

/** What the add-on itself says of its tabs, asked from one of its own pages. */
interface AddOnTabs {
  /** Every tab's address as Firefox has it. */
  tabs: string[];
  /** How many welcome tabs it closed. */
  closed: number;
  /** Whether its background recorded the welcome as opened (welcome.ts). */
  welcomed: unknown;
}

/**
 * Runs in an extension page: closes the welcome tabs as the add-on sees them, and says what it saw.
 * `browser` is Firefox's own (the global is typed as Chrome's here).
 */
async function closeFromTheAddOn(page: string): Promise<AddOnTabs> {
  const api = (globalThis as unknown as { browser: Browser.Browser }).browser;
  const tabs = await api.tabs.query({});
  const welcome = tabs.filter((tab) => tab.url === location.origin + page).map((tab) => tab.id!);
  await api.tabs.remove(welcome);
  const { welcomed } = await api.storage.local.get('welcomed');
  return { tabs: tabs.map((tab) => tab.url ?? '(no address)'), closed: welcome.length, welcomed };
}

/**
 * How long BiDi alone is watched for the welcome tab when the add-on can be asked instead: on a
 * quiet machine the tab shows there in 0.3–0.6 s, but in some runs BiDi never showed it, and the
 * whole deadline was spent waiting for it.
 */
const BIDI_MS = 5_000;

/**
 * Closes the install's welcome tab in Firefox. BiDi is watched first; should it not show the tab
 * within BIDI_MS, the add-on is asked from a page of its own (`openPage`) until the deadline: its
 * answer is the truth about its tabs, so a tab BiDi did not report is still closed, and a missing
 * one is named with what the add-on had instead. Without `openPage`, BiDi is watched until the deadline.
 */
export async function closeFirefoxWelcome(
  browser: FirefoxBrowser,
  origin: string,
  openPage?: (path: 'options.html') => Promise<FirefoxPage>,
): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  const bidiDeadline = openPage ? Math.min(deadline, Date.now() + BIDI_MS) : deadline;
  let seen: string[] = [];
  while (Date.now() < bidiDeadline) {
    const { pages, where } = await firefoxTabs(browser);
    seen = where;
    const at = where.indexOf(origin + WELCOME_PAGE);
    if (at >= 0) return pages[at]!.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const missing = `the install opened no welcome tab at ${origin + WELCOME_PAGE} within ${WAIT_MS} ms`;
  if (!openPage) throw new Error(`${missing}; the tabs BiDi showed: ${seen.join(', ')}`);
  const page = await openPage('options.html');
  try {
    // Asked again until the deadline: on a busy machine the install may open the tab after this page.
    for (;;) {
      const asked = await page.evaluate(closeFromTheAddOn, WELCOME_PAGE);
      if (asked.closed > 0) {
        console.warn(`BiDi did not show the welcome tab (it showed: ${seen.join(', ')}); the add-on closed it`);
        return;
      }
      if (Date.now() >= deadline)
        throw new Error(
          `${missing}; the tabs BiDi showed: ${seen.join(', ')}; the add-on's own: ${asked.tabs.join(', ')}; ` +
            `welcomed: ${JSON.stringify(asked.welcomed)}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await page.close();
  }
}
