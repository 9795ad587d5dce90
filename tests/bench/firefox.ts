/**
 * Firefox measured like Chromium: the bench's Firefox build (its probe added: firefox-probe.ts) in
 * Debian's Firefox ESR, headless, over WebDriver BiDi as tests/e2e/firefox-harness.ts drives it. The
 * popup before connecting against the blank page, then, connected through the options page, the blank
 * page, the floor and the warm popup round by round (rounds.ts), SERIES series of RUNS, every load in
 * a tab that has wound down from the one before (about:blank, then SETTLE_MS), at the popup's size.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { byLabel, fillField, FIREFOX_PATH, waitForDocument } from '../e2e/firefox-harness';
import { closeFirefoxWelcome } from '../e2e/welcome-tab';
import { POPUP_VIEWPORT, RUNS, SERIES, SETTLE_MS, WARMUP } from './config';
import type { FirefoxMark } from './firefox-probe';
import { byPredecessor, rotate, type Rotation } from './rounds';
import { CACHE_KEYS, ageStored } from './state';
import { summarize, type Summary } from './stats';
import { popupViewItem } from '../../utils/storage-items';

const UUID = '0b7f3e1a-5c2d-4e8f-9a6b-1d2c3e4f5a6b';
type Path = 'popup.html' | 'floor.html' | 'blank.html';

/** One load: the probe's marks by element, and the page's first contentful paint. */
export interface FirefoxLoad {
  marks: Record<string, FirefoxMark>;
  fcp: number | null;
}

/** A page against another, series by series: each series' median ÷ the same series' median of the other. */
export interface FirefoxRatio {
  ratio: number;
  seriesRatios: number[];
  spread: { min: number; max: number };
}

export interface FirefoxReport {
  method: string;
  browserVersion: string;
  series: number;
  /** Painted (MozAfterPaint after the frame), ms from navigation, per page. */
  blank: Summary;
  floor: Summary;
  popupBalance: Summary;
  popupRows: Summary;
  notConnected: { blank: Summary; prompt: Summary; promptToBlank: FirefoxRatio };
  popupToFloor: { balance: FirefoxRatio; withRows: FirefoxRatio };
  popupToBlank: { balance: FirefoxRatio };
  floorToBlank: FirefoxRatio;
  /** The same balance ratio by the other readings of "painted" (firefox-probe.ts), to show what the choice weighs. */
  otherReadings: { frame: FirefoxRatio; raf2: FirefoxRatio };
  /** The warm rounds' painted times by the page loaded before each (rounds.ts). */
  afterPage: Record<string, Record<string, Summary>>;
  /** Loads in which a mark never got its composite (counted as missing, not guessed). */
  missing: number;
}

export const FIREFOX_METHOD =
  'The Firefox build with the paint probe first in each page (firefox-probe.ts): an ' +
  "element is painted at the first MozAfterPaint after the refresh tick that followed its insertion (Firefox's " +
  'nearest to Element Timing, which it lacks). The same probe on the popup, the floor and the blank page.';

const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function ratioOf(num: Array<Array<number | null>>, den: Array<Array<number | null>>): FirefoxRatio {
  const med = (list: Array<number | null>) => summarize(list.filter((v): v is number => v !== null)).median;
  const seriesRatios = num.map((runs, s) => ratio(med(runs), med(den[s]!)));
  return {
    ratio: ratio(med(num.flat()), med(den.flat())),
    seriesRatios,
    spread: { min: Math.min(...seriesRatios), max: Math.max(...seriesRatios) },
  };
}

interface FirefoxBench {
  browser: Browser;
  version: string;
  load(path: Path, marks: string[]): Promise<FirefoxLoad>;
  /** Runs `fn(arg)` in an extension page of ours (the tab's current one, or blank.html). */
  inExtension<A>(fn: (arg: A) => unknown, arg: A): Promise<void>;
  connect(baseUrl: string, token: string): Promise<void>;
  close(): Promise<void>;
}

async function launchFirefoxBench(dir: string): Promise<FirefoxBench> {
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as {
    browser_specific_settings: { gecko: { id: string } };
  };
  const profile = await mkdtemp(join(tmpdir(), 'panel-bench-firefox-'));
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    userDataDir: profile,
    args: ['--remote-allow-system-access'],
    extraPrefsFirefox: {
      'extensions.webextensions.uuids': JSON.stringify({ [manifest.browser_specific_settings.gecko.id]: UUID }),
      'extensions.webextOptionalPermissionPrompts': false,
      // The probe's "painted": MozAfterPaint, which Firefox sends to pages only with this on.
      'dom.send_after_paint_to_content': true,
    },
  });
  await browser.installExtension(dir);
  const tab = await browser.newPage();
  // The install's welcome tab would load beside every page measured: closed first (welcome-tab.ts).
  await closeFirefoxWelcome(browser, `moz-extension://${UUID}`);
  await tab.setViewport(POPUP_VIEWPORT);
  const origin = `moz-extension://${UUID}`;
  const at = (path: string) => `${origin}/${path}`;

  const load = async (path: Path, wanted: string[]): Promise<FirefoxLoad> => {
    await tab.goto('about:blank');
    await sleep(SETTLE_MS);
    const asked = Date.now();
    // Firefox never reports an extension page's navigation as finished (firefox-harness.ts): start it, then read the page.
    tab.goto(at(path), { timeout: 0 }).catch(() => undefined);
    // The probe stamps its marks in the page; the first read waits until most loads are painted, so
    // reading does not land in the middle of one.
    await sleep(250);
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const state = await tab
        .evaluate(
          (want: string[], page: string, since: number) => {
            const probe = (
              window as unknown as { __bench?: { marks: Record<string, FirefoxMark>; fcp(): number | undefined } }
            ).__bench;
            if (location.pathname !== `/${page}` || !probe || performance.timeOrigin < since - 1) return null;
            const done = want.every((name) => probe.marks[name]?.painted !== undefined);
            // A composite that never comes is counted as missing (FirefoxReport.missing), not waited for.
            const framed = want.every((name) => probe.marks[name]?.frame !== undefined);
            const late = performance.now() - Math.max(...want.map((name) => probe.marks[name]?.frame ?? 0)) > 3_000;
            return done || (framed && late) ? { marks: probe.marks, fcp: probe.fcp() ?? null } : null;
          },
          wanted,
          path,
          asked,
        )
        .catch(() => null);
      if (state) return state;
      await sleep(100);
    }
    throw new Error(`Firefox, ${path}: ${wanted.join(', ')} not painted within 30 s`);
  };

  const inExtension = async <A>(fn: (arg: A) => unknown, arg: A) => {
    const page = await browser.newPage();
    page.goto(at('blank.html'), { timeout: 0 }).catch(() => undefined);
    await waitForDocument(page, at('blank.html'));
    await page.evaluate(fn as never, arg);
    await page.close();
  };

  const connect = async (baseUrl: string, token: string) => {
    const options = await browser.newPage();
    options.goto(at('options.html'), { timeout: 0 }).catch(() => undefined);
    // Loaded first: a waitForSelector started while about:blank is being replaced fails outright.
    await waitForDocument(options, at('options.html'));
    // The build's panel address sits behind "Advanced" on the options page.
    await options.waitForSelector('details.advanced > summary', { timeout: 20_000 });
    if (!(await options.$eval('details.advanced', (d) => d.open))) await options.click('details.advanced > summary');
    await fillField(options, 'Panel address', baseUrl);
    await fillField(options, 'Personal key', token);
    await options.locator(byLabel('Connect', 'button')).click();
    await options.waitForSelector(byLabel('Disconnect', 'button'), { timeout: 30_000 });
    await options.close();
  };

  return {
    browser,
    // puppeteer says "firefox/153.8.0".
    version: (await browser.version()).replace(/^firefox\//i, ''),
    load,
    inExtension,
    connect,
    async close() {
      await browser.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

const painted = (load: FirefoxLoad, mark: string, reading: keyof FirefoxMark = 'painted') =>
  load.marks[mark]?.[reading] ?? null;

async function rounds(ff: FirefoxBench, pages: Array<[Path, string[]]>, prepare: () => Promise<void>) {
  return rotate<FirefoxLoad>({
    groups: [pages.length],
    series: SERIES,
    runs: RUNS,
    warmup: WARMUP,
    prepare,
    load: (k) => ff.load(pages[k]![0], pages[k]![1]),
  });
}

const times = (rotation: Rotation<FirefoxLoad>, page: number, mark: string, reading: keyof FirefoxMark = 'painted') =>
  rotation.byPage[page]!.map((runs) => runs.map((r) => painted(r, mark, reading)));
const summary = (list: Array<Array<number | null>>) => summarize(list.flat().filter((v): v is number => v !== null));

/** Measures Firefox; `connect` is given the sandbox's address and token once the not-connected rounds are done. */
export async function measureFirefox(
  dir: string,
  sandbox: { url: string; token: string },
  log: (line: string) => void = () => {},
): Promise<FirefoxReport> {
  const ff = await launchFirefoxBench(dir);
  try {
    log(`Firefox ${ff.version}: the popup before connecting against the blank page`);
    const before = await rounds(
      ff,
      [
        ['blank.html', ['blank']],
        ['popup.html', ['prompt']],
      ],
      async () => {},
    );
    await ff.connect(sandbox.url, sandbox.token);
    log('Firefox: blank page, floor and warm popup');
    let freshAt = 0;
    const fresh = async () => {
      if (Date.now() - freshAt < 30_000) return;
      await ff.inExtension(ageStored, { keys: [...CACHE_KEYS], viewKey: popupViewItem.key, ageMs: 0 });
      freshAt = Date.now();
    };
    const warm = await rounds(
      ff,
      [
        ['blank.html', ['blank']],
        ['floor.html', ['balance']],
        ['popup.html', ['balance', 'reward']],
      ],
      fresh,
    );
    const [blank, floor, popup, rows] = [
      times(warm, 0, 'blank'),
      times(warm, 1, 'balance'),
      times(warm, 2, 'balance'),
      times(warm, 2, 'reward'),
    ];
    const missing = [before, warm]
      .flatMap((r) => r.byPage.flat(2))
      .filter((load) => Object.values(load.marks).some((m) => m.frame !== undefined && m.painted === undefined)).length;
    const headline = (k: number, load: FirefoxLoad) => painted(load, k === 0 ? 'blank' : 'balance');
    return {
      method: FIREFOX_METHOD,
      browserVersion: ff.version,
      series: SERIES,
      blank: summary(blank),
      floor: summary(floor),
      popupBalance: summary(popup),
      popupRows: summary(rows),
      notConnected: {
        blank: summary(times(before, 0, 'blank')),
        prompt: summary(times(before, 1, 'prompt')),
        promptToBlank: ratioOf(times(before, 1, 'prompt'), times(before, 0, 'blank')),
      },
      popupToFloor: { balance: ratioOf(popup, floor), withRows: ratioOf(rows, floor) },
      popupToBlank: { balance: ratioOf(popup, blank) },
      floorToBlank: ratioOf(floor, blank),
      otherReadings: {
        frame: ratioOf(times(warm, 2, 'balance', 'frame'), times(warm, 1, 'balance', 'frame')),
        raf2: ratioOf(times(warm, 2, 'balance', 'raf2'), times(warm, 1, 'balance', 'raf2')),
      },
      afterPage: byPredecessor(warm.sequence, ['blank', 'floor', 'popup'], headline),
      missing,
    };
  } finally {
    await ff.close();
  }
}
