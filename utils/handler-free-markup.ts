/**
 * Chromium checks the page's content security policy the moment an element is given an event-handler
 * attribute (`onerror`, `onload`, `ontoggle`, …), whatever document the element is in: DOMParser's, a
 * `<template>`'s, createHTMLDocument's and the Sanitizer API's all load and run nothing, yet each such
 * attribute parsed there fires `securitypolicyviolation` and logs "Executing inline event handler
 * violates …" (issue 29, item 14; seen in Chromium 156, tests/e2e/reward-html-inert.test.ts). So the
 * panel's markup reaches no parser as it came: this reads it as the HTML tokenizer would and writes
 * it out again without event handlers, in a form every tokenizer state reads alike:
 *
 * - every `<` of text or of an attribute value is escaped, so the only tags are those written here,
 *   whichever state (RAWTEXT, RCDATA, foreign content) the next parser is in;
 * - attribute values are double-quoted, with `"`, `<` and `>` escaped;
 * - comments, doctypes, CDATA sections and processing instructions are dropped.
 *
 * Safety rests on that output form, not on reading the input exactly as a browser would (which needs
 * the tree: `<style>` inside MathML is no raw text); a misreading only changes how the text looks.
 * Sanitizing is still DOMPurify's (utils/sanitize.ts).
 */

const SPACE = /[\t\n\f\r ]/;
const ALPHA = /[a-z]/i;
const TAG_NAME = /^[a-z][a-z0-9-]*$/;
const ATTRIBUTE_NAME = /^[a-z_][a-z0-9_.:-]*$/;
/** Elements whose content the tokenizer reads as text up to their own end tag (in HTML content). */
const TEXT_ONLY = new Set(['script', 'style', 'xmp', 'iframe', 'noembed', 'noframes', 'textarea', 'title']);

interface Tag {
  name: string;
  attributes: Map<string, string>;
  selfClosing: boolean;
  /** Where the input goes on after the tag. */
  next: number;
}

const isSpace = (c: string | undefined) => c !== undefined && SPACE.test(c);

/** The tag whose name starts at `at`; null when the input ends inside it (the tokenizer then drops it). */
function readTag(s: string, at: number): Tag | null {
  let i = at;
  while (i < s.length && !isSpace(s[i]) && s[i] !== '/' && s[i] !== '>') i += 1;
  const tag: Tag = { name: s.slice(at, i).toLowerCase(), attributes: new Map(), selfClosing: false, next: 0 };
  while (i < s.length) {
    const c = s[i]!;
    if (isSpace(c)) i += 1;
    else if (c === '>') return { ...tag, next: i + 1 };
    else if (c === '/') {
      if (s[i + 1] === '>') return { ...tag, selfClosing: true, next: i + 2 };
      i += 1;
    } else {
      // An attribute name may start with anything else, `=` included; it ends at space, `/`, `>` or `=`.
      const start = i;
      i += 1;
      while (i < s.length && !isSpace(s[i]) && s[i] !== '/' && s[i] !== '>' && s[i] !== '=') i += 1;
      const name = s.slice(start, i).toLowerCase();
      let value = '';
      let j = i;
      while (isSpace(s[j])) j += 1;
      if (s[j] === '=') {
        j += 1;
        while (isSpace(s[j])) j += 1;
        const quote = s[j];
        if (quote === '"' || quote === "'") {
          const close = s.indexOf(quote, j + 1);
          if (close < 0) return null;
          value = s.slice(j + 1, close);
          j = close + 1;
        } else if (quote !== '>') {
          const start = j;
          while (j < s.length && !isSpace(s[j]) && s[j] !== '>') j += 1;
          if (j >= s.length) return null;
          value = s.slice(start, j);
        }
      }
      i = j;
      // The first of a repeated attribute counts.
      if (!tag.attributes.has(name)) tag.attributes.set(name, value);
    }
  }
  return null;
}

const escapeText = (text: string) => text.replaceAll('<', '&lt;');
const escapeValue = (value: string) => value.replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

function startTag({ name, attributes, selfClosing }: Tag): string {
  if (!TAG_NAME.test(name)) return '';
  let out = `<${name}`;
  for (const [attribute, value] of attributes) {
    if (ATTRIBUTE_NAME.test(attribute) && !attribute.startsWith('on')) out += ` ${attribute}="${escapeValue(value)}"`;
  }
  return `${out}${selfClosing ? ' /' : ''}>`;
}

/** Where a text-only element's content ends: at its own end tag, or the end of the input. */
function endOfText(s: string, from: number, name: string): number {
  // No `u` flag: without it, case-insensitive matching never maps a non-ASCII letter to an ASCII one.
  const end = new RegExp(`</${name}[\\t\\n\\f\\r />]`, 'gi');
  end.lastIndex = from;
  return end.exec(s)?.index ?? s.length;
}

/** Past the next `>` (a bogus comment, a doctype, `<![CDATA[` outside foreign content). */
function pastBogus(s: string, from: number): number {
  const close = s.indexOf('>', from);
  return close < 0 ? s.length : close + 1;
}

/** Past a comment whose `<!--` ends just before `from`. */
function pastComment(s: string, from: number): number {
  if (s[from] === '>') return from + 1;
  if (s.startsWith('->', from)) return from + 2;
  const ends = [s.indexOf('-->', from), s.indexOf('--!>', from)].filter((at) => at >= 0);
  if (!ends.length) return s.length;
  const at = Math.min(...ends);
  return at + (s.startsWith('-->', at) ? 3 : 4);
}

/** `html` with no event-handler attribute, in a form every parser reads as it is written here (above). */
export function handlerFreeMarkup(html: string): string {
  const s = html;
  let out = '';
  let i = 0;
  while (i < s.length) {
    const open = s.indexOf('<', i);
    if (open < 0) {
      out += s.slice(i);
      break;
    }
    out += s.slice(i, open);
    const c = s[open + 1] ?? '';
    if (ALPHA.test(c)) {
      const tag = readTag(s, open + 1);
      if (!tag) break;
      out += startTag(tag);
      i = tag.next;
      if (!TAG_NAME.test(tag.name)) continue;
      if (tag.name === 'plaintext') {
        out += escapeText(s.slice(i));
        break;
      }
      if (TEXT_ONLY.has(tag.name)) {
        const end = endOfText(s, i, tag.name);
        out += escapeText(s.slice(i, end));
        i = end;
      }
    } else if (c === '/') {
      const d = s[open + 2] ?? '';
      if (ALPHA.test(d)) {
        const tag = readTag(s, open + 2);
        if (!tag) break;
        if (TAG_NAME.test(tag.name)) out += `</${tag.name}>`;
        i = tag.next;
      } else if (d === '>') i = open + 3;
      else if (d === '') {
        out += '&lt;/';
        i = open + 2;
      } else i = pastBogus(s, open + 2);
    } else if (c === '!') {
      i = s.startsWith('--', open + 2) ? pastComment(s, open + 4) : pastBogus(s, open + 2);
    } else if (c === '?') {
      i = pastBogus(s, open + 1);
    } else {
      out += '&lt;';
      i = open + 1;
    }
  }
  return out;
}
