/**
 * A new install opens the extension's welcome once (entrypoints/background/welcome.ts). A browser
 * launched on a fresh profile is such an install: the tests, the screenshots and the benchmarks
 * close that tab once it is there, as a panelist would, so it neither shares the browser with what
 * they measure nor sends the panel requests of its own once connected. tests/e2e/welcome.test.ts
 * keeps it and checks it.
 */
import type { BrowserContext, Page } from 'playwright-core';
import type { Browser as FirefoxBrowser, Page as FirefoxPage } from 'puppeteer-core';

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

/**
 * Firefox's tabs at the welcome's address (puppeteer over WebDriver BiDi). Firefox never reports a
 * moz-extension:// navigation to BiDi (firefox-harness.ts), so each tab is asked where it is.
 */
export async function firefoxWelcomes(browser: FirefoxBrowser, origin: string): Promise<FirefoxPage[]> {
  const pages = await browser.pages();
  const where = await Promise.all(pages.map((page) => page.evaluate(() => location.href).catch(() => '')));
  return pages.filter((_, i) => where[i] === origin + WELCOME_PAGE);
}

/** Closes the install's welcome tab in Firefox. */
export async function closeFirefoxWelcome(browser: FirefoxBrowser, origin: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    const [page] = await firefoxWelcomes(browser, origin);
    if (page) return page.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the install opened no welcome tab at ${origin + WELCOME_PAGE} within ${WAIT_MS} ms`);
}
