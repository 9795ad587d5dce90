/**
 * Touch targets at phone size, measured in the page: every visible control's box, the page's width
 * against the viewport's, and any :hover rule that would reveal something. Shared by the Chromium
 * and Firefox phone tests, so it is one function that runs inside the page (no closures).
 */

/** The two phone viewports the layout is held to (CSS px): a small Android phone and a large one. */
export const PHONE_SIZES = [
  { width: 360, height: 740 },
  { width: 412, height: 915 },
] as const;

/** WCAG 2.5.5 (enhanced) for the actions a panelist comes for; 2.5.8 (minimum) for the rest. */
export const PRIMARY_MIN = 44;
export const OTHER_MIN = 24;

export interface Target {
  /** Tag and accessible-ish name, enough to find it from a failure. */
  name: string;
  primary: boolean;
  width: number;
  height: number;
  left: number;
  right: number;
}

export interface Measured {
  targets: Target[];
  innerWidth: number;
  scrollWidth: number;
  /** Selectors of :hover rules that change more than colours: something only a mouse would see. */
  hoverOnly: string[];
}

/**
 * Runs in the page. A checkbox or radio is measured by its label's box when that is the larger
 * one in its smaller dimension: a tap anywhere on the label toggles it.
 */
export function measureTargets(): Measured {
  const PRIMARY = /^(Redeem|Confirm|Sign in|Answer now)\b/;
  const visible = (el: Element) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && !el.closest('[inert], [hidden], .sr-only, .visually-hidden');
  };
  const nameOf = (el: Element) =>
    (el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent ?? '')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 50);
  const targets: Target[] = [];
  for (const el of document.querySelectorAll<HTMLElement>(
    'button, a[href], input:not([type="hidden"]), select, textarea, summary',
  )) {
    if (!visible(el)) continue;
    let r = el.getBoundingClientRect();
    if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) {
      const lr = el.labels?.[0]?.getBoundingClientRect();
      if (lr && Math.min(lr.width, lr.height) > Math.min(r.width, r.height)) r = lr;
    }
    // A stretched button (its ::after laid over the row, as a reward's name over its row's top):
    // the finger meets the row's box, which is where the ::after is laid.
    const after = getComputedStyle(el, '::after');
    if (after.content !== 'none' && after.position === 'absolute' && el.offsetParent) {
      const pr = el.offsetParent.getBoundingClientRect();
      if (pr.height > r.height) r = pr;
    }
    const name = nameOf(el);
    // By visible text or name: a row's button shows "Redeem" and is named "Redeem Atlas…".
    const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
    const type = el instanceof HTMLInputElement ? `[${el.type}]` : '';
    targets.push({
      name: `${el.tagName.toLowerCase()}${type} "${name}"`,
      primary: PRIMARY.test(text) || PRIMARY.test(name),
      width: Math.round(r.width * 10) / 10,
      height: Math.round(r.height * 10) / 10,
      left: Math.round(r.left * 10) / 10,
      right: Math.round(r.right * 10) / 10,
    });
  }
  // Properties whose change on :hover would show, hide or move something rather than tint it.
  const REVEALING = [
    'display',
    'visibility',
    'opacity',
    'content',
    'clip',
    'clip-path',
    'max-height',
    'height',
    'width',
    'overflow',
    'pointer-events',
  ];
  const hoverOnly: string[] = [];
  const walk = (rules: CSSRuleList) => {
    for (const rule of rules) {
      if (rule instanceof CSSStyleRule && rule.selectorText.includes(':hover')) {
        const changed = REVEALING.filter((p) => rule.style.getPropertyValue(p) !== '');
        if (changed.length > 0) hoverOnly.push(`${rule.selectorText} { ${changed.join(', ')} }`);
      }
      if ('cssRules' in rule && rule.cssRules) walk(rule.cssRules as CSSRuleList);
    }
  };
  for (const sheet of document.styleSheets) walk(sheet.cssRules);
  return { targets, innerWidth: window.innerWidth, scrollWidth: document.documentElement.scrollWidth, hoverOnly };
}

/** What breaks the rules, in words; empty when the page passes. */
export function targetFailures(m: Measured): string[] {
  const failures: string[] = [];
  if (m.scrollWidth > m.innerWidth)
    failures.push(`the page is ${m.scrollWidth} px wide in a ${m.innerWidth} px viewport`);
  for (const t of m.targets) {
    const min = t.primary ? PRIMARY_MIN : OTHER_MIN;
    if (t.width < min || t.height < min) failures.push(`${t.name} is ${t.width}×${t.height}, under ${min}×${min}`);
    if (t.left < -0.5 || t.right > m.innerWidth + 0.5)
      failures.push(`${t.name} spans ${t.left}–${t.right} of ${m.innerWidth}`);
  }
  for (const rule of m.hoverOnly) failures.push(`hover-only: ${rule}`);
  return failures;
}

/** The `count` smallest targets, as table rows for the log. */
export function smallest(where: string, m: Measured, count = 5): Array<Record<string, string | number>> {
  return m.targets
    .toSorted((a, b) => Math.min(a.width, a.height) - Math.min(b.width, b.height))
    .slice(0, count)
    .map((t) => ({ where, target: t.name, size: `${t.width}×${t.height}`, min: t.primary ? PRIMARY_MIN : OTHER_MIN }));
}

/** Each reward row's top and bottom edge in the viewport (CSS px). Runs inside the page. */
export function rewardRowEdges(): Array<{ top: number; bottom: number }> {
  return [...document.querySelectorAll('.reward')].map((row) => {
    const r = row.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom };
  });
}

/** How many rows end within a screen `height` tall, and a line saying where they stand, for the log. */
export function rowsInView(where: string, rows: Array<{ top: number; bottom: number }>, height: number) {
  const whole = rows.filter((row) => row.bottom <= height).length;
  const first = rows[0]!.top;
  const third = rows[2] ? `, the third ending at ${Math.round(rows[2].bottom)} px` : '';
  return {
    whole,
    said: `${where}: the first reward row starts at ${Math.round(first)} px (${((first / height) * 100).toFixed(1)} %), ${whole} whole rows in view${third}`,
  };
}
