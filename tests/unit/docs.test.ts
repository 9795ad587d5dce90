// @vitest-environment node
/**
 * The documents per reader hold together: the README stays short enough for a panelist and a
 * newcomer, every top-level section of the other documents is one link away from it, every link
 * between them lands on a heading that exists, and no line is too long to read.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const DOCS = ['ARCHITECTURE.md', 'OPERATORS.md', 'CONTRIBUTING.md', 'SECURITY.md'];
const ALL = ['README.md', ...DOCS, 'OPERATOR-CHECKLIST.md', 'entrypoints/background/redemption/README.md'];

const read = (file: string) => readFileSync(file, 'utf8');
/** The text outside fenced code blocks, where headings and links mean what they say. */
const prose = (text: string) => text.replace(/```[\s\S]*?```/g, '');
/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');
const headings = (text: string, level = '#{1,6}') =>
  [...prose(text).matchAll(new RegExp(`^${level} (.*)$`, 'gm'))].map((m) => m[1] ?? '');

describe('the documents', () => {
  it('keep the README short: at most 150 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(150);
  });

  it('keep the set-up commands in the README', () => {
    const readme = read('README.md');
    expect(readme).toContain('## Set-up');
    expect(readme).toMatch(/```sh\nnpm install && npm start .*\nnpm test .*\n```/);
  });

  it.each(DOCS)('%s: every top-level section is linked from the README', (doc) => {
    const readme = read('README.md');
    const unlinked = headings(read(doc), '##').filter((h) => !readme.includes(`(${doc}#${slug(h)})`));
    expect(unlinked).toEqual([]);
  });

  it.each(ALL)('%s: every link to a file or heading of the repository lands', (file) => {
    const broken = [...prose(read(file)).matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => m[1] ?? '')
      .filter((link) => !/^[a-z]+:/.test(link))
      .filter((link) => {
        const [path, anchor] = link.split('#');
        const target = path ? normalize(join(dirname(file), path)) : file;
        if (!existsSync(target)) return true;
        return anchor !== undefined && target.endsWith('.md') && !headings(read(target)).map(slug).includes(anchor);
      });
    expect(broken).toEqual([]);
  });

  it.each(ALL)('%s: no line over 400 characters', (file) => {
    expect(
      read(file)
        .split('\n')
        .filter((line) => line.length > 400),
    ).toEqual([]);
  });
});
