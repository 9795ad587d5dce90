/**
 * Finding a control in Firefox by its accessible name and role, as a panelist finds it, without
 * asking Firefox about every element of the page.
 *
 * Firefox answers a query by role and name (WebDriver BiDi's locateNodes, puppeteer's `::-p-aria`)
 * by computing both for each element it walks, about 3 ms an element: a query on a connected popup
 * or options page (260–300 elements) took about a second, so a sign-in story of a hundred steps
 * spent most of its 38 s there (its Chromium twin takes 7 s).
 *
 * So the page first keeps the elements that could carry the name: those whose tag or `role` can
 * have the role asked for, and whose label sources hold the name (the rule below). Firefox's own
 * query then runs from each of those alone, and decides: what is found has Firefox's role and name,
 * as before. The keeping can only make a query find less, never something Firefox would not name
 * so; such a miss shows as a test that waits for its control until its time-out. So `byLabel` is
 * for finding what must be there, never for asserting that something is not: there a miss would pass.
 */
import { Puppeteer } from 'puppeteer-core';

/** The handler's name, used as `::-p-<name>(…)` in a selector. */
const HANDLER = 'panelNamed';

/**
 * Runs in the page (puppeteer sends its source, so it uses nothing from outside). `selector` is
 * `{ name, role }` as JSON. Keeps the elements under `root` that:
 * - can have `role`: its tags and `[role=…]` for the four roles the tests ask for (any element for
 *   another role: slower, never wrong);
 * - hold `name`, spaces made single, in what a name can be made of, joined: `aria-label`, the
 *   elements `aria-labelledby` names, the form control's labels, `title`, `alt`, `placeholder`, a
 *   text field's or button's value, the `aria-label` and `alt` of what it contains, and its text.
 *   Without a role, the text counts only for an element with no element inside, or every ancestor
 *   of a match would be kept and walked whole.
 */
function named(root: Node, selector: string): Element[] {
  const { name, role } = JSON.parse(selector) as { name: string; role?: string };
  const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();
  const want = squeeze(name);
  const tags: Record<string, string> = {
    button:
      'button,summary,input[type="button"],input[type="submit"],input[type="reset"],input[type="image"],[role="button"]',
    link: 'a[href],area[href],[role="link"]',
    heading: 'h1,h2,h3,h4,h5,h6,[role="heading"]',
    region: 'section,[role="region"]',
  };
  const scope = root as ParentNode & Partial<Element>;
  const pool = [...(scope.matches?.('*') ? [scope as Element] : []), ...scope.querySelectorAll('*')];
  const fits = role && tags[role] ? (el: Element) => el.matches(tags[role]!) : () => true;
  const doc = (root.ownerDocument ?? root) as Document;
  const byId = (id: string) => doc.getElementById(id)?.textContent ?? '';
  const sources = (el: Element): string[] => {
    const own = ['aria-label', 'title', 'alt', 'placeholder'].map((attr) => el.getAttribute(attr) ?? '');
    const labelledBy = (el.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean).map(byId);
    const labels = 'labels' in el ? [...((el as HTMLInputElement).labels ?? [])].map((l) => l.textContent ?? '') : [];
    const value = el instanceof HTMLInputElement || el instanceof HTMLButtonElement ? [el.value] : [];
    const inner = [...el.querySelectorAll('[aria-label],[alt]')].map(
      (child) => `${child.getAttribute('aria-label') ?? ''} ${child.getAttribute('alt') ?? ''}`,
    );
    const text = role || el.childElementCount === 0 ? [el.textContent ?? ''] : [];
    return [...own, ...labelledBy, ...labels, ...value, ...inner, ...text];
  };
  return pool.filter((el) => fits(el) && squeeze(sources(el).join(' ')).includes(want));
}

/**
 * `named` as the page gets it: its source, with a `__name` of its own. Puppeteer sends a handler's
 * source, not the function, and tsx (which runs the bench) compiles with keepNames, wrapping inner
 * functions in calls to a `__name` helper that the page lacks, where the handler would throw and a
 * wait for it never end. vitest keeps no names: there the stand-in is never called.
 */
// oxlint-disable-next-line typescript/no-implied-eval -- built for the page, which runs its source; Node never calls it
const inPage = new Function(
  'root',
  'selector',
  `const __name = (fn) => fn; return (${named.toString()})(root, selector);`,
);

if (!Puppeteer.customQueryHandlerNames().includes(HANDLER))
  Puppeteer.registerCustomQueryHandler(HANDLER, { queryAll: inPage as typeof named });

/** An element by its accessible name (and role) as Firefox computes them, as a panelist finds it. */
export function byLabel(name: string, role?: string): string {
  return `::-p-${HANDLER}(${JSON.stringify(JSON.stringify({ name, role }))})${byFirefoxName(name, role)}`;
}

/** Firefox's own query by name (and role), which decides among the elements `named` keeps. */
function byFirefoxName(name: string, role?: string): string {
  const quoted = JSON.stringify(name);
  return role ? `::-p-aria([name=${quoted}][role=${JSON.stringify(role)}])` : `::-p-aria([name=${quoted}])`;
}
