/**
 * One action, in one place on every row: a reward row's Redeem stands beside its goal toggle, on
 * the same line, at the row's end edge (the right in a page written left to right, the left in
 * Arabic), whatever the language and the width. At 320 px and on a phone it once dropped below
 * "Set as goal" onto a line of its own at the start edge, which also made each row 40 px taller.
 */

/** Runs in the page (one function, no closures): what is out of place in each reward row on screen. */
export function actionFaults(): string[] {
  const found: string[] = [];
  const rtl = getComputedStyle(document.documentElement).direction === 'rtl';
  for (const row of document.querySelectorAll('li.reward')) {
    const redeem = row.querySelector('.btn-redeem');
    const toggle = row.querySelector('.goal-toggle');
    const foot = row.querySelector('.reward-foot');
    if (!redeem || !toggle || !foot || !redeem.getClientRects().length) continue;
    const r = redeem.getBoundingClientRect();
    const g = toggle.getBoundingClientRect();
    const f = foot.getBoundingClientRect();
    const name = row.querySelector('.reward-open')?.textContent?.trim() ?? '?';
    if (Math.abs((r.top + r.bottom) / 2 - (g.top + g.bottom) / 2) > 2)
      found.push(`${name}: Redeem is not on its goal toggle's line`);
    if ((rtl ? r.left - f.left : f.right - r.right) > 1) found.push(`${name}: Redeem is not at the row's end edge`);
    if (rtl ? g.left < r.right : g.right > r.left) found.push(`${name}: the goal toggle is not before Redeem`);
  }
  return found;
}
