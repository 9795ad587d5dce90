/**
 * The paint probe of the Firefox bench, added to the bench's copy of the Firefox build only (the
 * release build never carries it). Firefox has no Element Timing, and WebDriver BiDi's preload
 * scripts do not run in moz-extension:// pages, so the probe is the first thing in each page's
 * <head> — popup.html, floor.html and blank.html alike — as an inline script the bench's manifest
 * allows by its hash: no request, nothing loaded before it but the bytes above it.
 *
 * What it counts as painted, for each awaited element (the balance, the first reward's name, the
 * prompt to connect, the blank page's line), the same way on every page:
 *  - dom: a MutationObserver callback first sees the element holding text;
 *  - frame: a task queued from the next requestAnimationFrame has run, i.e. the refresh-driver tick
 *    that followed the insertion (style, layout, display list, handed to the compositor) is over;
 *  - painted (the headline): the first MozAfterPaint event after `frame`: the compositor has
 *    composited a frame since that tick and told the page. The bench turns on the preference that
 *    sends the event to pages (dom.send_after_paint_to_content). This is the nearest Firefox has to
 *    Element Timing's renderTime in Chromium (the frame presented), and unlike `frame` it waits for a
 *    tick Gecko actually painted (it suppresses paints early in a load). The event says nothing of
 *    which tick it reports (its transaction id and rectangles are for privileged code only), so
 *    events are matched to waiting marks in order, earliest tick first; a report that lags by more
 *    than a frame can still be matched one tick early. Firefox's own first-contentful-paint is
 *    stamped at the start of the tick that painted, 15–25 ms before this event (seen here).
 *  - raf2: the second animation frame after the insertion (the common double-rAF reading), kept for comparison.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Plain JavaScript, as it goes into the page (no build step between, so its hash is its hash). */
export const FIREFOX_PROBE = `(() => {
  const text = (selector) => !!document.querySelector(selector)?.textContent?.trim();
  const targets = {
    '/popup.html': { balance: '.hdr-balance', reward: '.reward-name', prompt: '#connect-title' },
    '/floor.html': { balance: '.hdr-balance' },
    '/blank.html': { blank: '#bench-blank' },
  }[location.pathname] ?? {};
  const marks = {};
  const waiting = [];
  // Composites are reported in the order their ticks painted: one event completes the marks of the
  // earliest tick still waiting, so a late report of one tick is not taken for the next tick's too.
  addEventListener('MozAfterPaint', () => {
    if (!waiting.length) return;
    const now = performance.now();
    const tick = Math.min(...waiting.map((mark) => mark.tick));
    for (let i = waiting.length - 1; i >= 0; i -= 1)
      if (waiting[i].tick === tick) waiting.splice(i, 1)[0].painted = now;
  });
  const check = () => {
    for (const [name, selector] of Object.entries(targets)) {
      if (marks[name] || !text(selector)) continue;
      const mark = (marks[name] = { dom: performance.now() });
      requestAnimationFrame((tick) => {
        setTimeout(() => {
          mark.frame = performance.now();
          mark.tick = tick;
          waiting.push(mark);
        }, 0);
        requestAnimationFrame(() => (mark.raf2 = performance.now()));
      });
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
  Object.defineProperty(window, '__bench', {
    value: { marks, fcp: () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime },
  });
})();`;

export interface FirefoxMark {
  dom: number;
  frame?: number;
  /** The requestAnimationFrame timestamp of the tick after the insertion. */
  tick?: number;
  painted?: number;
  raf2?: number;
}

export const FIREFOX_PROBE_PAGES = ['popup.html', 'floor.html', 'blank.html'];

/** Puts the probe first in each measured page's <head> and its hash in the manifest's script-src. */
export function addFirefoxProbe(dir: string): void {
  for (const page of FIREFOX_PROBE_PAGES) {
    const file = join(dir, page);
    const html = readFileSync(file, 'utf8');
    if (!/<head[^>]*>/.test(html)) throw new Error(`${file}: no <head> to put the probe in`);
    writeFileSync(
      file,
      html.replace(/<head[^>]*>/, (head) => `${head}<script>${FIREFOX_PROBE}</script>`),
    );
  }
  const file = join(dir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as { content_security_policy?: string };
  const policy = manifest.content_security_policy ?? "script-src 'self'";
  const hash = createHash('sha256').update(FIREFOX_PROBE).digest('base64');
  if (!/script-src /.test(policy)) throw new Error(`${file}: no script-src in the content security policy`);
  manifest.content_security_policy = policy.replace('script-src ', `script-src 'sha256-${hash}' `);
  writeFileSync(file, JSON.stringify(manifest, null, 2));
}
