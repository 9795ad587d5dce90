/**
 * Connecting with a large catalogue, as a panelist does it on the options page: the personal key
 * pasted, Connect pressed; then when "Connected" (the connection's card, with Disconnect) is on
 * screen, and when the catalogue is in (the popup view holds its first rows). Each against what the
 * same work costs by itself, from the same extension page, in the same rounds: the key check's own
 * request (a plain fetch of it, body read), and a plain fetch of the catalogue with its JSON parse.
 * Rounds alternate the three; between two connects the extension disconnects, which empties every
 * cache, so each connect starts as the first one does.
 */
import type { Page } from 'playwright-core';
import type { Bench } from './browser';
import { OPTIONS_VIEWPORT, SERIES } from './config';
import { summarize, type Summary } from './stats';

/** The request that checks a pasted key (entrypoints/background/session/session.ts, `checkKey`). */
export const KEY_CHECK_PATH = '/v1/panel/variables/data';
export const CATALOGUE_PATH = '/v1/panel/rewards';

export interface ConnectFigure {
  ratio: number;
  seriesRatios: number[];
  spread: { min: number; max: number };
}

export interface ConnectReport {
  rewards: number;
  /** The catalogue's JSON, as the panel sends it. */
  catalogueBytes: number;
  /** Connect pressed → "Connected" on screen (ms). */
  connected: Summary;
  /** Connect pressed → the catalogue stored with the popup view (ms). */
  catalogue: Summary;
  /** A plain fetch of the key check's request, its body read (ms). */
  keyCheck: Summary;
  /** A plain fetch of the catalogue and JSON.parse of its body (ms). */
  fetchParse: Summary;
  /** What bounds the catalogue from below, by itself: writing it as the background stores it (one storage.local.set). */
  storeAlone: Summary;
  /** "Connected" ÷ the key check's own request; target ≤ 1.5. */
  connectedToKeyCheck: ConnectFigure;
  /** The catalogue in ÷ fetch + parse; target ≤ 2. */
  catalogueToFetch: ConnectFigure;
}

/** One plain read from the options page: fetch, the body read (and parsed, for the catalogue); ms and bytes. */
function plainRead(page: Page, url: string, token: string, parse: boolean): Promise<{ ms: number; bytes: number }> {
  return page.evaluate(
    async ({ url, token, parse }) => {
      const start = performance.now();
      const response = await fetch(url, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } });
      const text = await response.text();
      if (parse) JSON.parse(text);
      if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
      return { ms: performance.now() - start, bytes: text.length };
    },
    { url, token, parse },
  );
}

/** One connect through the form; the times are the page's own (performance.now), from the click. */
async function connectOnce(
  page: Page,
  baseUrl: string,
  token: string,
): Promise<{ connected: number; catalogue: number }> {
  await page.reload();
  await page.getByLabel('Personal key').waitFor();
  const address = page.getByLabel('Panel address');
  if (!(await address.isVisible())) await page.getByText('Advanced', { exact: true }).click();
  await address.fill(baseUrl);
  await page.getByLabel('Personal key').fill(token);
  await page.evaluate(() => {
    const marks: { click?: number; connected?: number; catalogue?: number } = {};
    (window as unknown as { __connect: typeof marks }).__connect = marks;
    document.addEventListener(
      'click',
      (e) => {
        if ((e.target as Element).closest('button[type="submit"]')) marks.click ??= performance.now();
      },
      true,
    );
    const connected = () =>
      Array.from(document.querySelectorAll('button')).some((b) => b.textContent?.trim() === 'Disconnect');
    new MutationObserver(() => {
      if (marks.click !== undefined && marks.connected === undefined && connected())
        marks.connected = performance.now();
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
    chrome.storage.onChanged.addListener((changes, area) => {
      const view = changes['view:popup']?.newValue as { rewards?: unknown } | undefined;
      if (area === 'local' && view?.rewards && marks.catalogue === undefined) marks.catalogue = performance.now();
    });
  });
  await page.getByRole('button', { name: 'Connect' }).click();
  const marks = await page.waitForFunction(
    () => {
      const m = (window as unknown as { __connect: { click?: number; connected?: number; catalogue?: number } })
        .__connect;
      return m.connected !== undefined && m.catalogue !== undefined && m;
    },
    undefined,
    { timeout: 180_000, polling: 100 },
  );
  const { click, connected, catalogue } = (await marks.jsonValue()) as {
    click: number;
    connected: number;
    catalogue: number;
  };
  return { connected: connected - click, catalogue: catalogue - click };
}

/** Disconnects through the card, as a panelist does: every cache goes with the session. */
async function disconnect(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Disconnect' }).click();
  await page.getByRole('button', { name: 'Yes, disconnect' }).click();
  await page.getByLabel('Personal key').waitFor();
}

/** The catalogue's items as the background writes them with the popup view (entrypoints/background/popup-view.ts). */
const STORED_KEYS = ['cache:rewards', 'cache:reward-html', 'view:popup'];

/**
 * Run inside the worker (as source: it names nothing of its own): the catalogue's items written
 * back as they are, in one storage.local.set, three times (each after removing them, as the first
 * write after a connect finds nothing there), timed; they stay as they were.
 */
const storeTimes = async (keys: string[]): Promise<number[]> => {
  const items = await chrome.storage.local.get(keys);
  const times: number[] = [];
  for (let i = 0; i < 3; i += 1) {
    await chrome.storage.local.remove(keys);
    const start = performance.now();
    await chrome.storage.local.set(items);
    times.push(performance.now() - start);
  }
  return times;
};

const figure = (parts: number[][], base: number[][]): ConnectFigure => {
  const median = (xs: number[]) => summarize(xs).median;
  const seriesRatios = parts.map((xs, i) => Math.round((median(xs) / median(base[i]!)) * 100) / 100);
  const ratio = Math.round((median(parts.flat()) / median(base.flat())) * 100) / 100;
  return { ratio, seriesRatios, spread: { min: Math.min(...seriesRatios), max: Math.max(...seriesRatios) } };
};

/**
 * `rounds` rounds in each of SERIES series, the extension not connected at the start (its first
 * connection is the first round's). Leaves it connected, as it found the sandbox seeded.
 */
export async function measureConnect(
  bench: Bench,
  sandbox: { url: string; token: string },
  rewards: number,
  rounds = Number(process.env.BENCH_CONNECT_RUNS ?? 3),
): Promise<ConnectReport> {
  const page = await bench.open('options.html', OPTIONS_VIEWPORT);
  const series = {
    connected: [] as number[][],
    catalogue: [] as number[][],
    keyCheck: [] as number[][],
    fetchParse: [] as number[][],
  };
  let catalogueBytes = 0;
  let storeAlone: number[] = [];
  try {
    await page.getByRole('heading', { name: 'Connection' }).waitFor();
    if (await page.getByRole('button', { name: 'Disconnect' }).isVisible()) await disconnect(page);
    await page.getByLabel('Personal key').waitFor();
    for (let s = 0; s < SERIES; s += 1) {
      const one = {
        connected: [] as number[],
        catalogue: [] as number[],
        keyCheck: [] as number[],
        fetchParse: [] as number[],
      };
      for (let r = 0; r < rounds; r += 1) {
        // Each round in another order, so none always runs right after a connect's writes.
        const steps = [
          async () =>
            one.keyCheck.push((await plainRead(page, `${sandbox.url}${KEY_CHECK_PATH}`, sandbox.token, false)).ms),
          async () => {
            const read = await plainRead(page, `${sandbox.url}${CATALOGUE_PATH}`, sandbox.token, true);
            one.fetchParse.push(read.ms);
            catalogueBytes = read.bytes;
          },
          async () => {
            const { connected, catalogue } = await connectOnce(page, sandbox.url, sandbox.token);
            one.connected.push(connected);
            one.catalogue.push(catalogue);
            await disconnect(page);
          },
        ];
        for (let i = 0; i < steps.length; i += 1) await steps[(i + r + s) % steps.length]!();
      }
      for (const key of Object.keys(series) as Array<keyof typeof series>) series[key].push(one[key]);
    }
    // Connected again for whatever is measured next.
    await connectOnce(page, sandbox.url, sandbox.token);
    storeAlone = await bench.inWorker(storeTimes, STORED_KEYS);
  } finally {
    await page.close();
  }
  return {
    rewards,
    catalogueBytes,
    connected: summarize(series.connected.flat()),
    catalogue: summarize(series.catalogue.flat()),
    keyCheck: summarize(series.keyCheck.flat()),
    fetchParse: summarize(series.fetchParse.flat()),
    storeAlone: summarize(storeAlone),
    connectedToKeyCheck: figure(series.connected, series.keyCheck),
    catalogueToFetch: figure(series.catalogue, series.fetchParse),
  };
}
