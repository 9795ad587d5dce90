/**
 * One measured page load: navigate to an extension page, wait for the probe to see its content
 * painted, optionally click the last item and wait for the answer, read the marks.
 */
import type { ConsoleMessage, Page } from 'playwright-core';
import type { Bench, ExtensionPath } from './browser';
import { REPORT, type Mark, type ProbeState, type Report } from './probe';

/** What to click once the content is there, and what shows that the page answered. */
export type Interaction = 'reward-details' | 'show-more' | 'profile-choice';

export interface LoadSpec {
  path: ExtensionPath;
  viewport: { width: number; height: number };
  /** Element Timing identifiers whose latest paint is "content visible" (see probe.ts). */
  elements: string[];
  /** Probe mark that means the content is in the DOM (default 'content'). */
  mark?: string;
  interaction?: Interaction;
  timeoutMs?: number;
  /** After the content (and the answer to the click), how long to go on recording long tasks and layout shifts. */
  settleMs?: number;
  /** A selector whose presence at the end is reported (`found`). */
  find?: string;
}

export interface LoadResult {
  /** Content painted, ms since navigation start: Element Timing renderTime, else the frame after it entered the DOM. */
  visible: number;
  /** Content entered the DOM. */
  dom: number;
  fp?: number;
  fcp?: number;
  /** Navigation → the answer to a click issued as soon as the content was seen. */
  interactive?: number;
  /** The click's input event → the answer painted (the page's own share of the above). */
  clickToAnswer?: number;
  /** Reward details only: click → the lazily loaded, sanitized details painted. */
  clickToDetails?: number;
  /** Main-thread long tasks between navigation and content visible, and after it (until the answer and settleMs). */
  longTasksBefore: number;
  longTasksAfter: number;
  /** How many of the long tasks after content visible there were. */
  longTaskCountAfter: number;
  /** Layout shift score after the first contentful paint (until the answer and settleMs). */
  shiftAfterFirstPaint: number;
  /** Element Timing renderTime of each identifier seen. */
  element: Record<string, number>;
  /** Every awaited element had its Element Timing entry (else `visible` is the frame after the DOM change). */
  reported: boolean;
  /** Whether the spec's `find` selector matched at the end. */
  found?: boolean;
  marks: Record<string, Mark>;
}

export class LoadError extends Error {}

async function probeState(page: Page): Promise<ProbeState> {
  return page.evaluate(() => {
    const { marks, element, long, shifts, fp, fcp } = window.__bench;
    return { marks, element, long, shifts, fp, fcp };
  });
}

/** Scrolls the target into view, arms the answer watchers, returns where to click. */
async function arm(page: Page, interaction: Interaction): Promise<{ x: number; y: number } | null> {
  return page.evaluate((kind) => {
    let target: Element | null | undefined;
    if (kind === 'reward-details') {
      const buttons = document.querySelectorAll('.reward button[aria-controls]');
      target = buttons[buttons.length - 1];
      const panel = target && document.getElementById(target.getAttribute('aria-controls') ?? '');
      if (!panel) return null;
      window.__bench.watch('answer', () => !panel.hidden && panel.firstElementChild);
      window.__bench.watch(
        'details',
        () => panel.querySelector('div.details') && !panel.querySelector('[aria-busy="true"]'),
      );
    } else if (kind === 'show-more') {
      target = document.querySelector('.history-list ~ button');
      const before = document.querySelectorAll('.history-row').length;
      window.__bench.watch('answer', () => document.querySelectorAll('.history-row').length > before);
    } else {
      const fields = [...document.querySelectorAll('form fieldset.field')].filter((f) =>
        f.querySelector('input:not(:checked)'),
      );
      const field = fields[fields.length - 1];
      const input = field?.querySelector('input:not(:checked)');
      target = input && document.querySelector(`label[for="${input.id}"]`);
      if (field) window.__bench.watch('answer', () => field.classList.contains('edited'));
    }
    if (!target) return null;
    target.scrollIntoView({ block: 'center' });
    const r = target.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }, interaction);
}

/**
 * `failed`, when given, is asked every 2 s while the content has not come: a reason it returns
 * ends the wait at once (the extension reported an error instead of showing the content).
 */
export async function measureLoad(
  bench: Bench,
  spec: LoadSpec,
  failed?: () => Promise<string | null>,
): Promise<LoadResult> {
  const timeout = spec.timeoutMs ?? 30_000;
  const mark = spec.mark ?? 'content';
  // The probe's reports, read as they come: nothing is evaluated in the page until its content is
  // painted (probe.ts says why). Reports from an earlier page in the same tab have an earlier origin.
  const startedAt = Date.now();
  let latest: Report | null = null;
  let wake = () => {};
  const listen = (message: ConsoleMessage) => {
    const text = message.text();
    if (message.type() !== 'debug' || !text.startsWith(`${REPORT} `)) return;
    const report = JSON.parse(text.slice(REPORT.length + 1)) as Report;
    if (report.origin < startedAt - 1 || (latest && report.origin < latest.origin)) return;
    latest = report;
    wake();
  };
  const done = (r: Report | null) =>
    r !== null && r.marks[mark]?.paint !== undefined && spec.elements.every((id) => r.element[id] !== undefined);
  let page: Page | undefined;
  let state: ProbeState | null = null;
  try {
    page = await bench.load(spec.path, spec.viewport, (tab) => tab.on('console', listen));
    const deadline = Date.now() + timeout;
    while (!done(latest) && Date.now() < deadline) {
      const slice = Math.min(2_000, deadline - Date.now());
      const woke = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), slice);
        wake = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
      if (woke) continue;
      const reason = await failed?.();
      if (reason) throw new LoadError(`${spec.path}: no ${mark}; ${reason}`);
    }
  } finally {
    page?.off('console', listen);
  }
  const seen = await probeState(page).catch(() => null);
  if (done(latest) && seen) state = seen;
  else {
    if (!seen?.marks[mark]?.paint) throw new LoadError(`${spec.path}: no ${mark} within ${timeout} ms`);
    // Content painted but an Element Timing entry never came: fall back to the frame-based time, and
    // say so, since every load then waits the whole timeout (a probe selector no longer matching the
    // element that holds the text looked like a hung benchmark).
    const missing = spec.elements.filter((id) => seen.element[id] === undefined);
    console.warn(
      `[bench] ${spec.path}: no Element Timing entry for ${missing.join(', ')} within ${timeout} ms; using the frame after the DOM change`,
    );
    state = seen;
  }
  let clicked = false;
  if (spec.interaction) {
    const at = await arm(page, spec.interaction);
    if (at) {
      await page.mouse.click(at.x, at.y);
      const wanted = spec.interaction === 'reward-details' ? ['answer', 'details'] : ['answer'];
      await page.waitForFunction((names) => names.every((n) => window.__bench.marks[n]?.paint !== undefined), wanted, {
        timeout,
        polling: 20,
      });
      clicked = true;
      state = await probeState(page);
    }
  }
  if (spec.settleMs) {
    await page.waitForTimeout(spec.settleMs);
    state = await probeState(page);
  }
  const content = state.marks[mark]!;
  const painted = spec.elements.map((id) => state.element[id]);
  const reported = painted.every((t) => t !== undefined);
  const visible = reported ? Math.max(...painted) : content.paint!;
  const sum = (list: Array<[number, number]>) => Math.round(list.reduce((n, [, d]) => n + d, 0));
  const result: LoadResult = {
    visible,
    dom: content.dom,
    fp: state.fp,
    fcp: state.fcp,
    marks: state.marks,
    longTasksBefore: sum(state.long.filter(([start]) => start < visible)),
    longTasksAfter: sum(state.long.filter(([start]) => start >= visible)),
    longTaskCountAfter: state.long.filter(([start]) => start >= visible).length,
    shiftAfterFirstPaint:
      Math.round(state.shifts.filter(([start]) => start >= (state.fcp ?? 0)).reduce((n, [, v]) => n + v, 0) * 1000) /
      1000,
    element: state.element,
    reported,
  };
  if (spec.find) result.found = await page.evaluate((selector) => document.querySelector(selector) !== null, spec.find);
  if (clicked) {
    const click = state.marks.click!;
    result.interactive = state.marks.answer!.paint!;
    result.clickToAnswer = state.marks.answer!.paint! - (click.event ?? click.dom);
    const details = state.marks.details?.paint;
    if (details !== undefined) result.clickToDetails = details - (click.event ?? click.dom);
  }
  return result;
}

/** JS heap in use by a loaded page after a forced garbage collection, bytes. */
export async function heapAfterLoad(bench: Bench, spec: LoadSpec): Promise<number> {
  const page = await bench.load(spec.path, spec.viewport);
  const mark = spec.mark ?? 'content';
  await page.waitForFunction((m) => window.__bench.marks[m]?.paint !== undefined, mark, {
    timeout: spec.timeoutMs ?? 30_000,
    polling: 20,
  });
  // The popup's app starts after its first frame and then loads what that render needs: its heap
  // is read once the page has stopped loading, not while the app is still on its way.
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
  await page.waitForTimeout(300);
  const cdp = await bench.context.newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return usedSize;
}
