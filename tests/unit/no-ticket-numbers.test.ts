// @vitest-environment node
/**
 * Code and tests give their reasons in words, not as ticket numbers: a newcomer cannot open
 * "issue 19", and the number says nothing by itself. A test is named by the behaviour it holds, and
 * its file by what it holds (never `regressions-17.test.ts`); the history of a change is in its
 * commit. Product code also names no section of a page outside the repository ("design §5"); the
 * tests' comments and the doctor's report to operators still cite the design page.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkoutRoot } from './checkout-root';

const ROOT = checkoutRoot();
const DIRS = ['entrypoints', 'components', 'utils', 'public'];
const FILES = ['wxt.config.ts', 'vitest.config.ts', 'stryker.config.mjs'];
const TEXT = /\.(?:ts|tsx|mts|js|mjs|css|html|json)$/;
/**
 * What the bench writes (its figures name commits, not tickets), and this file, whose examples are
 * what the check looks for.
 */
const SKIPPED = /^tests\/bench\/results\.|^tests\/unit\/no-ticket-numbers\.test\.ts$/;

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (SKIPPED.test(path)) return [];
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    return TEXT.test(name) ? [path] : [];
  });
}

/** Anywhere in the text: in a comment, a test's name, a string or a message's description alike. */
const TICKETS: readonly RegExp[] = [/\bissues? #?\d+/gi, /\bregressions?-\d+/gi, /\bround \d+\b/gi];
const OUTSIDE_PAGE = /design\s*§/gi;
/**
 * In comments only, "#12" or "(#12)" as a ticket; in code a `#` before digits is a colour or a
 * fragment. Block comments, HTML comments, and line comments not after a `:` (a URL's `//`).
 */
const TICKET = /(?:^|[\s(])#\d+\b(?![a-f])/gi;
const COMMENTS = /\/\*[\s\S]*?\*\/|<!--[\s\S]*?-->|(?<![:\\'"\w])\/\/.*$/gm;

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

function ticketReferences(path: string, text: string, patterns: readonly RegExp[] = TICKETS): string[] {
  const found: { index: number; what: string }[] = [];
  for (const pattern of patterns) for (const m of text.matchAll(pattern)) found.push({ index: m.index, what: m[0] });
  for (const comment of text.matchAll(COMMENTS)) {
    for (const m of comment[0].matchAll(TICKET)) found.push({ index: comment.index + m.index, what: m[0].trim() });
  }
  return found.sort((a, b) => a.index - b.index).map(({ index, what }) => `${path}:${lineOf(text, index)}: ${what}`);
}

const PRODUCT = [...TICKETS, OUTSIDE_PAGE];
const productFiles = () => [...DIRS.flatMap(sources), ...FILES];
const referencesIn = (files: string[], patterns: readonly RegExp[]) =>
  files.flatMap((path) => ticketReferences(path, readFileSync(join(ROOT, path), 'utf8'), patterns));

describe('no ticket numbers in the code or its tests', () => {
  it('finds each kind of reference, with its file and line, and passes colours and fragments', () => {
    const text = [
      '/** Painted first (issue 19). */',
      'const x = 1; // see issues 11, 21',
      '/* as design §5 says */',
      '// fixed in #42',
      '/* colour `#000` on #fff, and options.html#history */',
      "const colour = '#123';",
      "describe('round 2, item 3', () => {});",
      '// moved from regressions-17.test.ts; it rounds 20 up',
    ].join('\n');
    expect(ticketReferences('a.ts', text, PRODUCT)).toEqual([
      'a.ts:1: issue 19',
      'a.ts:2: issues 11',
      'a.ts:3: design §',
      'a.ts:4: #42',
      'a.ts:7: round 2',
      'a.ts:8: regressions-17',
    ]);
    expect(ticketReferences('a.test.ts', text)).not.toContain('a.test.ts:3: design §');
  });

  it('none in entrypoints/, components/, utils/, public/ or the configs', () => {
    const files = productFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(referencesIn(files, PRODUCT)).toEqual([]);
  });

  it('none in tests/: a test is named by what it holds', () => {
    const files = sources('tests');
    expect(files.length).toBeGreaterThan(200);
    expect(referencesIn(files, TICKETS)).toEqual([]);
  });

  it('no test file named after a ticket', () => {
    const named = sources('tests').filter((path) =>
      /(?:^|[/-])(?:regressions?|issues?|tickets?|round)-?\d+/i.test(path),
    );
    expect(named).toEqual([]);
  });
});
