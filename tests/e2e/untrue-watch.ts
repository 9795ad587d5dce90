/**
 * Watches an extension page for words that would tell the panelist something untrue, in every
 * state the page passes through: a card can change state within a second, too fast for polling to
 * be sure of seeing each. Works on a Playwright (Chromium) and a Puppeteer (Firefox) page alike.
 */

/** What both browsers' page objects offer: running a function in the page with one argument. */
interface Evaluating {
  evaluate(fn: (arg: string) => unknown, arg: string): Promise<unknown>;
}

/** Records every text `page` shows that matches `untrue`, from now on; the returned call reads what was seen. */
export async function recordUntrue(page: Evaluating, untrue: RegExp): Promise<() => Promise<string[]>> {
  await page.evaluate((source: string) => {
    const pattern = new RegExp(source, 'i');
    const seen: string[] = [];
    (window as unknown as { untrueSeen: string[] }).untrueSeen = seen;
    const look = () => {
      const text = document.body.innerText;
      if (pattern.test(text)) seen.push(text);
    };
    new MutationObserver(look).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
    look();
  }, untrue.source);
  return async () =>
    (await page.evaluate(() => (window as unknown as { untrueSeen: string[] }).untrueSeen, '')) as string[];
}
