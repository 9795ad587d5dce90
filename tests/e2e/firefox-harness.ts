/**
 * The Firefox build in Debian's firefox-esr, headless, over WebDriver BiDi (puppeteer-core):
 * installed as a temporary add-on, with its internal UUID fixed by preference so its pages have a
 * known moz-extension:// address. Nothing is downloaded and nothing is built here: lane-setup.ts
 * builds `-b firefox` next to the Chrome build, pointed at the same sandbox URL.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { E2E_OUT_DIR } from './config';
import { byLabel } from './firefox-by-label';
import { closeFirefoxWelcome } from './welcome-tab';

export { byLabel };

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
export const E2E_FIREFOX_DIR = `${E2E_OUT_DIR}/firefox-mv2`;
/** Any fixed UUID: otherwise Firefox picks a random one per profile at install. */
export const EXTENSION_UUID = '7d1f3c52-4b8e-4a61-9c2d-0e5f6a7b8c9d';
/**
 * The oldest Firefox these tests drive: on 140 ESR (Debian bookworm's main archive without its
 * security updates) puppeteer-core's WebDriver BiDi commands are unknown or time out, and every
 * Firefox test failed with a time-out that named no cause; 153 ESR passes. .ci/run installs at
 * least this version.
 */
export const FIREFOX_FLOOR = 153;

/** A page, with a fragment where one is wanted (`options.html#answer-POSTAL_CODE`). */
export type ExtensionPagePath = 'popup.html' | 'options.html' | `${'popup.html' | 'options.html'}#${string}`;

export interface FirefoxSession {
  browser: Browser;
  /** moz-extension://UUID */
  origin: string;
  geckoId: string;
  /** Milliseconds to launch Firefox and to install the add-on. */
  timings: { launchMs: number; installMs: number };
  /** Opens one of the extension's pages in a new tab and resolves once its document has loaded. */
  openPage(path: ExtensionPagePath): Promise<Page>;
  close(): Promise<void>;
}

/**
 * `extensionDir`: another build than the shared e2e one (sign-in tests use one with the OAuth settings).
 * `prefs`: more Firefox preferences (a shorter idle time for the event page, say).
 * `keepWelcome`: leave the install's welcome tab open (welcome.test.ts).
 */
export async function launchFirefox(
  options: { extensionDir?: string; prefs?: Record<string, string | number | boolean>; keepWelcome?: boolean } = {},
): Promise<FirefoxSession> {
  const extensionDir = resolve(options.extensionDir ?? E2E_FIREFOX_DIR);
  const manifest = JSON.parse(await readFile(join(extensionDir, 'manifest.json'), 'utf8')) as {
    browser_specific_settings: { gecko: { id: string } };
  };
  const geckoId = manifest.browser_specific_settings.gecko.id;
  const profileDir = await mkdtemp(join(tmpdir(), 'panel-e2e-firefox-'));

  const started = performance.now();
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    userDataDir: profileDir,
    // Without it, WebDriver BiDi refuses to navigate a tab to moz-extension:// ("Navigation to
    // … is not allowed in this context"). It changes the test driver's rights, not the add-on.
    args: ['--remote-allow-system-access'],
    extraPrefsFirefox: {
      'extensions.webextensions.uuids': JSON.stringify({ [geckoId]: EXTENSION_UUID }),
      // permissions.request() opens a prompt that nothing can answer headless: the request then
      // stays pending and "Connect" never finishes. Firefox's own switch accepts such requests.
      'extensions.webextOptionalPermissionPrompts': false,
      ...options.prefs,
    },
  });
  const launched = performance.now();
  try {
    await refuseOldFirefox(browser);
    // A temporary add-on, as about:debugging's "Load Temporary Add-on…" installs it.
    await browser.installExtension(extensionDir);
  } catch (error) {
    await browser.close();
    await rm(profileDir, { recursive: true, force: true });
    throw error;
  }
  const timings = { launchMs: launched - started, installMs: performance.now() - launched };
  const origin = `moz-extension://${EXTENSION_UUID}`;
  const openPage = async (path: ExtensionPagePath): Promise<Page> => {
    const page = await browser.newPage();
    const url = `${origin}/${path}`;
    // The page loads, but Firefox never reports this navigation as finished to BiDi, so goto's
    // promise never settles: start it, then watch the document itself.
    page.goto(url, { timeout: 0 }).catch(() => undefined);
    await waitForDocument(page, url);
    return page;
  };

  const close = async (): Promise<void> => {
    await browser.close();
    await rm(profileDir, { recursive: true, force: true });
  };

  // The install opens the welcome (welcome-tab.ts): closed as a panelist would, unless kept to be
  // checked. A launch that fails here leaves no Firefox running for the rest of the suite.
  if (!options.keepWelcome)
    await closeFirefoxWelcome(browser, origin, openPage).catch(async (error: unknown) => {
      await close();
      throw error;
    });

  return { browser, origin, geckoId, timings, openPage, close };
}

/** Says which Firefox ran and what to install, rather than letting each test time out on it. */
async function refuseOldFirefox(browser: Browser): Promise<void> {
  const version = await browser.version();
  const major = Number(/(\d+)\./.exec(version)?.[1]);
  // Refused only when known to be older: a version this cannot read is left to the tests to try.
  if (!(major < FIREFOX_FLOOR)) return;
  throw new Error(
    `${FIREFOX_PATH} is ${version}; the Firefox tests need Firefox ESR ${FIREFOX_FLOOR} or newer ` +
      '(Debian: apt-get update && apt-get install firefox-esr firefox-esr-l10n-ar).',
  );
}

/**
 * Resolves once `page` shows `url`'s document (its fragment aside), fully loaded. Polled with
 * evaluations that may fail while the document is replaced, never with puppeteer's waitFor*, whose
 * BiDi script.evaluate fails outright when a navigation lands mid-call.
 */
export async function waitForDocument(page: Page, url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const document = url.replace(/#.*$/, '');
  let seen = '';
  while (Date.now() < deadline) {
    // Throws while the document is being replaced; that is just "not yet". The page may change its
    // own fragment once loaded, so it is left out.
    seen = await page
      .evaluate(() => `${location.href.replace(/#.*$/, '')} ${window.document.readyState}`)
      .catch(() => seen);
    if (seen === `${document} complete`) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} did not load within ${timeoutMs} ms (last seen: "${seen}")`);
}

/**
 * Types into the form field labelled `label`. Firefox's accessibility tree also gives the <label>
 * itself that name, and exposes a password field under a role of its own, so the name alone is
 * matched and the form control among the matches is used.
 */
export async function fillField(page: Page, label: string, value: string): Promise<void> {
  await page.waitForSelector(byLabel(label));
  for (const handle of await page.$$(byLabel(label))) {
    const isControl = await handle.evaluate(
      (el) => el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement,
    );
    if (isControl) return handle.asLocator().fill(value);
  }
  throw new Error(`No form field is labelled "${label}"`);
}

/** Resolves once the page's visible text contains every one of `texts`. */
export async function waitForTexts(page: Page, texts: string[], timeoutMs = 30_000): Promise<void> {
  await page.waitForFunction(
    (wanted: string[]) => wanted.every((t) => document.body.innerText.includes(t)),
    { timeout: timeoutMs, polling: 100 },
    texts,
  );
}
