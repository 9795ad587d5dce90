// @vitest-environment node
/**
 * Product code gives its reasons in words, not as ticket numbers or sections of a page outside the
 * repository: a newcomer cannot open "issue 19" or "design §5", and the number says nothing by
 * itself. Tests may keep their references; the code they test may not.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkoutRoot } from './checkout-root';

const ROOT = checkoutRoot();
const DIRS = ['entrypoints', 'components', 'utils', 'public'];
const FILES = ['wxt.config.ts'];
const TEXT = /\.(?:ts|tsx|mts|js|mjs|css|html|json)$/;

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    return TEXT.test(name) ? [path] : [];
  });
}

/** Anywhere in the text: in a comment, a string or a message's description alike. */
const EVERYWHERE: readonly RegExp[] = [/\bissues? #?\d+/gi, /design\s*§/gi];
/**
 * In comments only, "#12" or "(#12)" as a ticket; in code a `#` before digits is a colour or a
 * fragment. Block comments, HTML comments, and line comments not after a `:` (a URL's `//`).
 */
const TICKET = /(?:^|[\s(])#\d+\b(?![a-f])/gi;
const COMMENTS = /\/\*[\s\S]*?\*\/|<!--[\s\S]*?-->|(?<![:\\'"\w])\/\/.*$/gm;

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

function ticketReferences(path: string, text: string): string[] {
  const found: { index: number; what: string }[] = [];
  for (const pattern of EVERYWHERE) for (const m of text.matchAll(pattern)) found.push({ index: m.index, what: m[0] });
  for (const comment of text.matchAll(COMMENTS)) {
    for (const m of comment[0].matchAll(TICKET)) found.push({ index: comment.index + m.index, what: m[0].trim() });
  }
  return found.sort((a, b) => a.index - b.index).map(({ index, what }) => `${path}:${lineOf(text, index)}: ${what}`);
}

describe('no ticket numbers in product code', () => {
  it('finds each kind of reference, with its file and line, and passes colours and fragments', () => {
    const text = [
      '/** Painted first (issue 19). */',
      'const x = 1; // see issues 11, 21',
      '/* as design §5 says */',
      '// fixed in #42',
      '/* colour `#000` on #fff, and options.html#history */',
      "const colour = '#123';",
    ].join('\n');
    expect(ticketReferences('a.ts', text)).toEqual([
      'a.ts:1: issue 19',
      'a.ts:2: issues 11',
      'a.ts:3: design §',
      'a.ts:4: #42',
    ]);
  });

  it('none in entrypoints/, components/, utils/, public/ or wxt.config.ts', () => {
    const files = [...DIRS.flatMap(sources), ...FILES];
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((path) => ticketReferences(path, readFileSync(join(ROOT, path), 'utf8')));
    expect(found).toEqual([]);
  });
});
