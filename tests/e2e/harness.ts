import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { afterEach } from 'vitest';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { CHROMIUM_ARGS, CHROMIUM_PATH, E2E_EXTENSION_DIR, E2E_SANDBOX_PORT } from './config';
import { welcomeTab } from './welcome-tab';

export interface ExtensionSession {
  context: BrowserContext;
  extensionId: string;
  sandbox: Sandbox;
  userDataDir: string;
  /** The extension's service worker (a new one after a restart). */
  worker(): Promise<Worker>;
  /** Stops the service worker the way Chrome does when it is idle or under memory pressure. */
  stopWorker(): Promise<void>;
  /** An extension page, with a fragment where one is wanted (`options.html#answer`). */
  openPage(path: PagePath): Promise<Page>;
  /** Connects through the options page, as a panelist would, and closes that page. */
  connect(account?: { url: string; token: string }): Promise<void>;
  /** Closes the browser; keeps the profile when `keepProfile` so it can be relaunched. */
  close(options?: { keepProfile?: boolean }): Promise<void>;
}

export type PagePath = 'popup.html' | 'options.html' | `${'popup.html' | 'options.html'}#${string}`;

export interface LaunchOptions {
  /** Relaunch an existing profile (browser-restart tests). */
  userDataDir?: string;
  /** Reuse a running sandbox instead of starting one. */
  sandbox?: Sandbox;
  /** The browser's UI language, e.g. `de` (messages and `chrome.i18n.getUILanguage()`). */
  locale?: string;
  /** Another build than the shared e2e one: sign-in tests use one with the OAuth settings, notification tests one granting that optional permission. */
  extensionDir?: string;
  /**
   * A phone's viewport for every page, with touch and mobile emulation; Blink's own settings make
   * the pages' only pointer a coarse one that cannot hover, as on Android (Playwright's touch
   * emulation leaves `(pointer: coarse)` and `(hover: none)` false).
   */
  phone?: { width: number; height: number };
  /** Leave the install's welcome tab open (welcome.test.ts); otherwise a fresh profile's is connected on (`connect`) or closed (welcome-tab.ts). */
  keepWelcome?: boolean;
  /**
   * Connect on the install's welcome tab, as a new panelist does, then close it (a fresh profile
   * only). The same steps as `connect()`, without loading a second options page: about 0.8 s of
   * CPU less a launch on a two-core machine (JOURNAL.md).
   */
  connect?: boolean;
}

/** Chromium with the extension loaded on `userDataDir`, as `options` ask (language, phone, throttling). */
async function startChromium(
  options: LaunchOptions,
  extensionDir: string,
  userDataDir: string,
): Promise<BrowserContext> {
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    // --lang picks the extension's messages; headless Chromium takes getUILanguage() from the page locale.
    ...(options.locale ? { locale: options.locale } : {}),
    ...(options.phone ? { viewport: options.phone, hasTouch: true, isMobile: true } : {}),
    args: [
      ...(options.phone
        ? ['--blink-settings=primaryPointerType=2,availablePointerTypes=2,primaryHoverType=1,availableHoverTypes=1']
        : []),
      ...CHROMIUM_ARGS,
      ...(options.locale ? [`--lang=${options.locale}`] : []),
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
    ],
  });
  // E2E_CPU_THROTTLE=N runs every page's CPU N times slower (Chromium's DevTools throttling): the
  // pages then lag the test as on a busy machine, and a test that reads a state before it arrives fails.
  const throttle = Number(process.env.E2E_CPU_THROTTLE ?? 1);
  if (throttle > 1)
    context.on('page', (page) => {
      void context
        .newCDPSession(page)
        .then((cdp) => cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle }))
        .catch(() => undefined);
    });
  return context;
}

/** The extension's service worker as it is now, followed across restarts (a stopped one stays listed but can no longer evaluate). */
async function followWorker(
  context: BrowserContext,
): Promise<{ first: Worker; worker(): Promise<Worker>; stopped(): void }> {
  let current: Worker | null = null;
  const track = (w: Worker) => {
    current = w;
    w.on('close', () => {
      if (current === w) current = null;
    });
  };
  context.on('serviceworker', track);
  const first = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  if (!current) track(first);
  return {
    first,
    worker: async () => current ?? context.waitForEvent('serviceworker'),
    stopped: () => {
      current = null;
    },
  };
}

export async function launchExtension(options: LaunchOptions = {}): Promise<ExtensionSession> {
  if (options.connect && (options.userDataDir || options.keepWelcome))
    throw new Error('connect: true needs a fresh profile whose welcome tab is left to it');
  const extensionDir = resolve(options.extensionDir ?? E2E_EXTENSION_DIR);
  const sandbox = options.sandbox ?? (await startSandbox({ port: E2E_SANDBOX_PORT }));
  const userDataDir = options.userDataDir ?? (await mkdtemp(join(tmpdir(), 'panel-e2e-')));
  let context: BrowserContext | null = null;

  const close = async ({ keepProfile = false } = {}): Promise<void> => {
    await context?.close();
    if (!options.sandbox && !keepProfile) await sandbox.close();
    if (!keepProfile) await rm(userDataDir, { recursive: true, force: true });
  };

  // A launch that fails anywhere (the browser, its worker, the welcome, connecting on it) leaves no
  // browser, sandbox or profile of its own behind for the next test to meet.
  try {
    context = await startChromium(options, extensionDir, userDataDir);
    const live = context;
    const workers = await followWorker(live);
    const extensionId = new URL(workers.first.url()).host;
    // A fresh profile is a new install, which opens the welcome: connected on or closed as a panelist
    // would, once there.
    const welcome =
      options.userDataDir || options.keepWelcome ? null : await welcomeTab(live, `chrome-extension://${extensionId}`);
    if (welcome && !options.connect) await welcome.close();

    const stopWorker = async (): Promise<void> => {
      // A blank page: an extension page would message the worker and could wake it straight away.
      const page = await live.newPage();
      const cdp = await live.newCDPSession(page);
      const stopped = new Promise<void>((resolve) =>
        cdp.on('ServiceWorker.workerVersionUpdated', (e) => {
          if (e.versions.every((v) => v.runningStatus === 'stopped')) resolve();
        }),
      );
      await cdp.send('ServiceWorker.enable');
      await cdp.send('ServiceWorker.stopAllWorkers');
      await stopped;
      workers.stopped();
      await page.close();
    };

    const openPage = async (path: PagePath): Promise<Page> => {
      const page = await live.newPage();
      await page.goto(`chrome-extension://${extensionId}/${path}`);
      return page;
    };

    const connect = async (account: { url: string; token: string } = sandbox): Promise<void> => {
      await connectOn(await openPage('options.html'), account);
    };

    if (options.connect) await connectOn(welcome!, sandbox);
    return {
      context: live,
      extensionId,
      sandbox,
      userDataDir,
      worker: workers.worker,
      stopWorker,
      openPage,
      connect,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Connects on an options page, as a panelist would, and closes it. */
async function connectOn(page: Page, account: { url: string; token: string }): Promise<void> {
  await page.getByLabel('Personal key').waitFor();
  // The build's own panel address sits behind "Advanced"; a test sandbox may run elsewhere.
  const address = page.getByLabel('Panel address');
  if (!(await address.isVisible())) await page.getByText('Advanced', { exact: true }).click();
  await address.fill(account.url);
  await page.getByLabel('Personal key').fill(account.token);
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.getByRole('button', { name: 'Disconnect' }).waitFor();
  // Connected once the key is accepted; the catalogue, the history and the profile are read
  // after (session/session.ts): a test starts from a connection whose first reads have landed.
  await page.waitForFunction(
    async () => {
      const { sync } = await chrome.storage.local.get<{
        sync?: Record<string, { loading: boolean; attemptedAt: number } | undefined>;
      }>('sync');
      return ['rewards', 'history', 'profile'].every((a) => {
        const area = sync?.[a];
        return area !== undefined && !area.loading && area.attemptedAt > 0;
      });
    },
    undefined,
    { polling: 50 },
  );
  await page.close();
}

/**
 * For a test file whose tests share one browser and carry on from each other: after a test that
 * failed, `reset` puts back what it may have left mid-way (a prompt or a dialog open, a page
 * half-filled), so the next test starts where a passing one would have left it and one failure is
 * reported once, not again by the tests after it.
 */
export function afterFailure(reset: () => Promise<unknown>): void {
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail') await reset();
  });
}

/**
 * For a test file whose tests each use their own browser: `start()` launches the extension and
 * connects it; it, and whatever the test adds to `cleanups`, is closed after each test, last first.
 */
export function connectedPerTest(): { start(): Promise<ExtensionSession>; cleanups: Array<() => Promise<unknown>> } {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return {
    cleanups,
    async start() {
      const ext = await launchExtension({ connect: true });
      cleanups.push(() => ext.close());
      return ext;
    },
  };
}
