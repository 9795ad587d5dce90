/**
 * Where figures land on screen in a page written right to left: a Range per character gives each
 * glyph's box across element boundaries (DOM order and innerText stay logical, so only geometry
 * shows a currency laid out beside the points instead of its amount). Shared by the Chromium and
 * Firefox tests; `glyphsOf` runs in the page, so it is one function with no closures.
 */

/** One character as laid out: its box, in the element's logical order. */
export interface Glyph {
  c: string;
  left: number;
  right: number;
  top: number;
}

/** Runs in the page: the glyphs of each element `selector` matches, bidirectional controls left out. */
export function glyphsOf(selector: string): Glyph[][] {
  const controls = /[\u200e\u200f\u061c\u2066-\u2069]/;
  return [...document.querySelectorAll(selector)].map((root) => {
    const out: Glyph[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node as Text;
      for (let i = 0; i < text.data.length; i++) {
        const c = text.data[i]!;
        if (controls.test(c)) continue;
        const range = document.createRange();
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        const box = range.getClientRects()[0];
        out.push(box ? { c, left: box.left, right: box.right, top: box.top } : { c, left: NaN, right: NaN, top: NaN });
      }
    }
    return out;
  });
}

/** A figure's text as the page has it, without the bidirectional controls `Intl` or the page put in it. */
export const bare = (text: string): string => text.replace(/[\u200e\u200f\u061c\u2066-\u2069]/g, '');

/** A run a reader reads left to right even in Arabic: Latin letters, digits and currency symbols ("US$", "5.00"). */
const LEFT_TO_RIGHT = /[\p{Script=Latin}\p{Nd}\p{Sc}.,]+/gu;

/**
 * What is wrong with how `figures` (in their logical order in the line) are laid out in `line`:
 * a figure on two lines, anything else between its own glyphs (a currency away from its amount), a
 * Latin token or a number not in its own order ("$US" for "US$"), and, where `rtl`, two figures of
 * one line not in the right-to-left order they are read in.
 */
export function figureFaults(line: Glyph[], figures: string[], rtl: boolean, where: string): string[] {
  const text = line.map((g) => g.c).join('');
  const found: string[] = [];
  const boxes: Array<{ left: number; right: number; top: number } | null> = figures.map((figure) => {
    const at = text.indexOf(figure);
    if (at < 0) {
      found.push(`${where}: “${figure}” is not in “${text}”`);
      return null;
    }
    const own = line.slice(at, at + figure.length).filter((g) => g.c.trim() && !Number.isNaN(g.left));
    if (new Set(own.map((g) => Math.round(g.top))).size > 1) found.push(`${where}: “${figure}” breaks over lines`);
    const box = {
      left: Math.min(...own.map((g) => g.left)),
      right: Math.max(...own.map((g) => g.right)),
      top: own[0]!.top,
    };
    line.forEach((g, i) => {
      if ((i >= at && i < at + figure.length) || !g.c.trim() || Math.abs(g.top - box.top) > 2) return;
      const middle = (g.left + g.right) / 2;
      if (middle > box.left && middle < box.right)
        found.push(`${where}: “${g.c}” lies inside “${figure}” in “${text}”`);
    });
    for (const run of figure.matchAll(LEFT_TO_RIGHT)) {
      const lefts = line.slice(at + run.index, at + run.index + run[0].length).map((g) => g.left);
      if (lefts.some((x, i) => i > 0 && x <= lefts[i - 1]!))
        found.push(`${where}: “${run[0]}” in “${figure}” is not read left to right`);
    }
    return box;
  });
  if (rtl)
    boxes.forEach((box, i) => {
      const next = boxes[i + 1];
      if (box && next && Math.abs(box.top - next.top) <= 2 && next.right > box.left + 0.5)
        found.push(`${where}: “${figures[i + 1]}” is not after (left of) “${figures[i]}”`);
    });
  return found;
}

/**
 * `text` (as it is in `line`, logically) in the order its characters stand on screen: line by
 * line from the top, each from left to right, spaces left out. A name written left to right reads
 * as itself wherever it is set ("GreenleafMarkt30€Einkaufsgutschein"); one whose figure took the
 * page's direction does not ("…Markt€30…"). Glyphs of one line may stand a few pixels apart in
 * height (another font for the currency sign): a line is what lies within 4 px of its first glyph.
 */
export function readAcross(line: Glyph[], text: string): string {
  const logical = line.map((g) => g.c).join('');
  const at = logical.indexOf(text);
  if (at < 0) return `(“${text}” is not in “${logical}”)`;
  const own = line.slice(at, at + text.length).filter((g) => g.c.trim() && !Number.isNaN(g.left));
  const byTop = own.toSorted((a, b) => a.top - b.top);
  const lineOf = new Map<Glyph, number>();
  let index = -1;
  let first = -Infinity;
  for (const g of byTop) {
    if (g.top - first > 4) {
      index += 1;
      first = g.top;
    }
    lineOf.set(g, index);
  }
  return own
    .toSorted((a, b) => lineOf.get(a)! - lineOf.get(b)! || a.left - b.left)
    .map((g) => g.c)
    .join('');
}
