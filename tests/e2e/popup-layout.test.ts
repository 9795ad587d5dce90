/**
 * In Chromium, the popup reflows down to 300 px (no sideways scroll, no control cut off),
 * nothing moves once the first frame is painted (with a goal, and with nothing cached), and focus
 * stays where the panelist works.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { NAME_SHIM } from '../bench/probe';
import { launchExtension, type ExtensionSession } from './harness';

/** Above the seed's 2,500 points: a goal still to reach, so the goal card and its bar show. */
const GOAL = 'Greenleaf Markt 30 € Einkaufsgutschein';

/**
 * Runs in every page before its own scripts: sums the layout shifts not caused by input, from the
 * very start, as Chromium reports them (the first frame's own paint is no shift: nothing moved yet).
 */
function recordShifts(): void {
  const shifts: Array<{ at: number; value: number; sources: string[] }> = [];
  Object.defineProperty(window, '__shifts', { value: shifts });
  new PerformanceObserver((list) => {
    type Source = { node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly };
    for (const entry of list.getEntries() as Array<
      PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: Source[] }
    >) {
      if (entry.hadRecentInput) continue;
      // What moved, and from where to where: enough to find the cause from a failure alone.
      const box = (r: DOMRectReadOnly) =>
        `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}×${Math.round(r.height)}`;
      const sources = (entry.sources ?? []).map(
        (s) =>
          `${s.node instanceof Element ? `${s.node.tagName}.${s.node.className}` : String(s.node?.nodeName)} ${box(s.previousRect)} → ${box(s.currentRect)}`,
      );
      shifts.push({ at: entry.startTime, value: entry.value, sources });
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

async function watchShifts(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: `${NAME_SHIM}\n(${recordShifts.toString()})();` });
}

const shiftsOf = (page: Page) =>
  page.evaluate(
    () => (window as unknown as { __shifts: Array<{ at: number; value: number; sources: string[] }> }).__shifts,
  );

/** Two frames more: anything the last change set off has been laid out and reported. */
const settle = (page: Page) =>
  page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

/**
 * Every visible control inside the popup's width and showing all of its own content; the page
 * does not scroll sideways.
 */
async function expectFits(popup: Page, where: string): Promise<void> {
  const found = await popup.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const cut: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('button, a, select, input, summary, progress')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const name = `${el.tagName} "${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40)}"`;
      if (r.left < -0.5 || r.right > width + 0.5)
        cut.push(`${name} at ${Math.round(r.left)}–${Math.round(r.right)} of ${width}`);
      else if (el.tagName === 'BUTTON' && el.scrollWidth > el.clientWidth + 1)
        cut.push(`${name} clips its text (${el.scrollWidth} > ${el.clientWidth})`);
    }
    return {
      width,
      scrollWidth: document.documentElement.scrollWidth,
      bodyScroll: document.body.scrollWidth,
      bodyWidth: document.body.clientWidth,
      cut,
    };
  });
  expect(found.cut, where).toEqual([]);
  expect(found.scrollWidth, `${where}: the page scrolls sideways`).toBeLessThanOrEqual(found.width);
  expect(found.bodyScroll, `${where}: the body scrolls sideways`).toBeLessThanOrEqual(found.bodyWidth);
}

async function openAt(ext: ExtensionSession, width: number): Promise<Page> {
  const page = await ext.context.newPage();
  await page.setViewportSize({ width, height: 600 });
  await page.goto(`chrome-extension://${ext.extensionId}/popup.html`);
  return page;
}

describe('the popup in English', () => {
  let ext: ExtensionSession;
  beforeAll(async () => {
    ext = await launchExtension();
    await watchShifts(ext.context);
  });
  afterAll(async () => {
    await ext?.close();
  });

  test('first run fits at 300, 320 and 380 px: one welcome line and one way in', async () => {
    for (const width of [300, 320, 380]) {
      const popup = await openAt(ext, width);
      await popup.getByRole('button', { name: 'Connect', exact: true }).waitFor();
      expect(
        await popup
          .getByRole('button')
          .filter({ hasText: /connect|sign in/i })
          .count(),
      ).toBe(1);
      await expectFits(popup, `first run, ${width} px`);
      await popup.close();
    }
  });

  test('with a goal: fits at 300, 320 and 380 px, and nothing shifts after the first frame', async () => {
    await ext.connect();
    const first = await openAt(ext, 380);
    await first.getByRole('button', { name: `Set as goal: ${GOAL}` }).click();
    await first.getByRole('button', { name: `Your goal: ${GOAL}`, pressed: true }).waitFor();
    await first.close();

    for (const width of [300, 320, 380]) {
      const popup = await openAt(ext, width);
      await popup.getByRole('button', { name: `Redeem ${GOAL}` }).waitFor();
      await popup.getByRole('button', { name: `Your goal: ${GOAL}`, pressed: true }).waitFor();
      // The history's latest redemption is the last thing to arrive.
      await popup.getByRole('region', { name: 'Latest redemption' }).waitFor();
      await settle(popup);
      await expectFits(popup, `with a goal, ${width} px`);
      expect(await shiftsOf(popup), `layout shifts at ${width} px`).toEqual([]);
      await popup.close();
    }
  });

  test('with nothing cached, the rows take the skeleton’s place without a shift', async () => {
    await (
      await ext.worker()
    ).evaluate(async () => {
      const all = await chrome.storage.local.get(null);
      await chrome.storage.local.remove(
        Object.keys(all).filter((key) => key.startsWith('cache:') || key === 'view:popup'),
      );
    });
    const popup = await openAt(ext, 380);
    await popup.getByRole('button', { name: `Redeem ${GOAL}` }).waitFor();
    await popup.getByRole('region', { name: 'Latest redemption' }).waitFor();
    await settle(popup);
    expect(await shiftsOf(popup)).toEqual([]);
    await popup.close();
  });

  test('Clear search gives focus back to the search box, not the top of the page', async () => {
    const popup = await openAt(ext, 380);
    const search = popup.getByRole('searchbox', { name: 'Search rewards' });
    // A search that leaves nothing offers to clear it.
    await search.fill('zzzz');
    await expect.poll(() => popup.locator('.reward').count()).toBe(0);
    await popup.getByRole('button', { name: 'Clear search' }).click();
    await expect.poll(() => popup.locator('.reward').count()).toBeGreaterThan(1);
    expect(await search.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await search.inputValue()).toBe('');
    await popup.close();
  });

  test('options: a section reached by its link gets focus without a ring on its heading', async () => {
    const options = await ext.openPage('options.html#history');
    const heading = options.getByRole('heading', { name: 'Redemption history' });
    await expect.poll(() => heading.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await heading.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('none');
    await options.close();
  });
});

describe('the popup in German', () => {
  let ext: ExtensionSession;
  beforeAll(async () => {
    ext = await launchExtension({ locale: 'de' });
  });
  afterAll(async () => {
    await ext?.close();
  });

  test('the longer words fit at 300 and 320 px; “Einlösen” stays on one line and more than two rewards show', async () => {
    const options = await ext.openPage('options.html');
    await options.getByLabel('Persönlicher Schlüssel').waitFor();
    await options.getByText('Erweitert', { exact: true }).click();
    await options.getByLabel('Panel-Adresse').fill(ext.sandbox.url);
    await options.getByLabel('Persönlicher Schlüssel').fill(ext.sandbox.token);
    await options.getByRole('button', { name: 'Verbinden', exact: true }).click();
    await options.getByRole('button', { name: 'Verbindung trennen' }).waitFor();
    await options.close();

    for (const width of [300, 320]) {
      const popup = await openAt(ext, width);
      await expect.poll(() => popup.locator('.hdr-balance').textContent()).toBe('2.500 Punkte');
      await popup
        .getByRole('button', { name: /einlösen$/ })
        .first()
        .waitFor();
      await expectFits(popup, `German, ${width} px`);
      const redeem = await popup.getByRole('button', { name: /einlösen$/ }).evaluateAll((buttons) =>
        buttons.map((b) => ({
          height: b.getBoundingClientRect().height,
          line: parseFloat(getComputedStyle(b).lineHeight) || 20,
        })),
      );
      for (const { height, line } of redeem) expect(height).toBeLessThan(line * 2);
      // Rows whose top is in the first 600 px.
      const inView = await popup
        .locator('.reward')
        .evaluateAll((rows) => rows.filter((r) => r.getBoundingClientRect().top < 600).length);
      expect(inView).toBeGreaterThan(2);
      await popup.close();
    }
  });
});
