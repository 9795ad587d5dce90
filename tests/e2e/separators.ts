/**
 * A "·" joins two parts of one line ("Updated just now · Refresh", "800 points to your goal · Earn
 * more points", "$5.00 · 500 points"); where the line wraps between them it must go, never start
 * the next line ("· Earn more points", seen in German on a phone, Japanese at 380 px and Polish at
 * 320 px) nor end the one before.
 */

/**
 * Runs in the page (one function, no closures): each "·" on screen that starts or ends a line. A
 * "·" its line clips away (outside the clipping box's sides, with its overflow-clip-margin) is not
 * on screen.
 */
export function separatorFaults(): string[] {
  const found: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const chars: Array<{ node: Text; i: number; c: string }> = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node as Text;
    [...text.data].forEach((c, i) => chars.push({ node: text, i, c }));
  }
  const box = ({ node, i }: { node: Text; i: number }) => {
    const range = document.createRange();
    range.setStart(node, i);
    range.setEnd(node, i + 1);
    const r = range.getClientRects()[0];
    return r && r.width > 0 ? r : undefined;
  };
  const block = (node: Node) => node.parentElement?.closest('p, li, h1, h2, h3, dd, label');
  const clipped = (node: Text, r: DOMRect) => {
    for (let el = node.parentElement; el; el = el.parentElement) {
      const style = getComputedStyle(el);
      if (style.overflowX === 'visible') continue;
      const edge = el.getBoundingClientRect();
      const margin = parseFloat(style.overflowClipMargin) || 0;
      const middle = (r.left + r.right) / 2;
      if (middle < edge.left - margin || middle > edge.right + margin) return true;
    }
    return false;
  };
  chars.forEach((at, k) => {
    if (at.c !== '·') return;
    const dot = box(at);
    if (!dot || clipped(at.node, dot)) return;
    const inBlock = (other: { node: Text }) => block(other.node) === block(at.node);
    const shown = (other: { node: Text; i: number; c: string }) => other.c.trim() !== '' && box(other) !== undefined;
    const before = chars
      .slice(0, k)
      .reverse()
      .find((o) => inBlock(o) && shown(o));
    const after = chars.slice(k + 1).find((o) => inBlock(o) && shown(o));
    const where = `“${block(at.node)?.textContent?.trim().replace(/\s+/g, ' ').slice(0, 80)}”`;
    if (!before || Math.abs(box(before)!.top - dot.top) > 2) found.push(`“·” starts a line in ${where}`);
    if (!after || Math.abs(box(after)!.top - dot.top) > 2) found.push(`“·” ends a line in ${where}`);
  });
  return found;
}
