/**
 * Right to left: the pages take the messages' language and writing direction (`lang`,
 * `dir`), the popup's first frame included; the stylesheets hold no physical left/right, so Arabic
 * mirrors; the balance chart runs from the right edge and its arrow keys follow; numbers and dates
 * speak the page's language.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import firstFrame from '../../entrypoints/first-frame';
import { BalanceSection } from '../../components/options/BalanceSection';
import { applyBrand } from '../../utils/brand';
import { DAY_MS, type BalanceSample } from '../../utils/balance-trend';
import { formatPoints } from '../../utils/format';
import { direction, uiLocale } from '../../utils/i18n';
import { balanceHistoryItem } from '../../utils/storage-items';
import { LANGUAGES, langOf } from './catalogues';
import { installI18n } from './i18n-setup';
import * as page from './options-fixtures';
import { waitFor } from './popup-fixtures';

const ROOT = join(__dirname, '../..');

describe('the writing direction', () => {
  it('is right to left for the languages written in a right-to-left script, by CLDR', () => {
    const rtl = ['ar', 'ar-EG', 'he', 'fa', 'ur', 'ps', 'yi', 'dv', 'ckb', 'sd', 'ug', 'az-Arab', 'pa-Arab'];
    const ltr = ['en', 'de', 'ja', 'zh-Hant', 'ru', 'tr', 'az', 'pa', 'hi', 'ko', 'pt-BR', 'sd-Deva'];
    expect(rtl.filter((l) => direction(l) !== 'rtl')).toEqual([]);
    expect(ltr.filter((l) => direction(l) !== 'ltr')).toEqual([]);
    expect(direction('not a tag')).toBe('ltr');
  });

  it.each(LANGUAGES)('%s: the options page and the popup carry its lang and dir', (locale) => {
    installI18n(locale);
    applyBrand();
    expect(document.documentElement.lang).toBe(langOf(locale));
    expect(document.documentElement.dir).toBe(locale === 'ar' ? 'rtl' : 'ltr');
  });

  it("is set by the popup's first-frame script before anything is painted", () => {
    installI18n('ar');
    document.documentElement.removeAttribute('dir');
    document.documentElement.lang = 'en';
    (firstFrame as unknown as { main(): void }).main();
    expect([document.documentElement.lang, document.documentElement.dir]).toEqual(['ar', 'rtl']);
  });
});

describe("numbers and dates in the page's language", () => {
  it('keep the browser’s regional variant of the messages’ language', () => {
    installI18n('de');
    expect(uiLocale()).toBe('de-DE');
    expect(formatPoints(2500)).toBe('2.500');
  });

  it('speak the messages’ language where the browser’s has none (Arabic digits with Arabic words)', () => {
    installI18n('ar');
    expect(uiLocale()).toBe('ar');
    expect(formatPoints(2500)).toBe(new Intl.NumberFormat('ar').format(2500));
    // A browser in Portuguese (Portugal) reads English (no pt_PT messages), so English numbers too.
    installI18n('en');
    (globalThis as { chrome: { i18n: { getUILanguage(): string } } }).chrome.i18n.getUILanguage = () => 'pt-PT';
    expect(uiLocale()).toBe('en');
    expect(formatPoints(2500)).toBe('2,500');
  });
});

/** Box properties whose four-value shorthand is top, right, bottom, left. */
const BOX_SHORTHANDS = new Set([
  'margin',
  'padding',
  'inset',
  'border-width',
  'border-style',
  'border-color',
  'scroll-margin',
  'scroll-padding',
]);

/** Splits a value on spaces outside parentheses (`calc(1px + 2px) 0`). */
function tokens(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let word = '';
  for (const ch of value) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (/\s/.test(ch) && depth === 0) {
      if (word) out.push(word);
      word = '';
    } else word += ch;
  }
  if (word) out.push(word);
  return out;
}

/**
 * Declarations of a stylesheet that are physical (left or right, which do not mirror), unless a
 * comment starting `physical:` just before says why. Returns `selector-less` "property: value" lines.
 */
function physicalDeclarations(css: string): string[] {
  const found: string[] = [];
  for (const segment of css.split(/[;{}]/)) {
    if (/\/\*\s*physical:/.test(segment)) continue;
    const declaration = segment.replace(/\/\*[\s\S]*?\*\//g, '').trim();
    const m = /^([a-z-]+)\s*:\s*([\s\S]+)$/.exec(declaration);
    if (!m) continue;
    const [, property, raw] = m as unknown as [string, string, string];
    const value = raw.replace(/(["'])[\s\S]*?\1/g, '""').replace(/\s*!important$/, '');
    const four = tokens(value.split('/')[0]!);
    const physical =
      /(^|-)(left|right)(-|$)/.test(property) ||
      /\b(left|right)\b/.test(value) ||
      (BOX_SHORTHANDS.has(property) && four.length === 4 && four[1] !== four[3]) ||
      (property === 'border-radius' && new Set(four).size > 1);
    if (physical) found.push(`${property}: ${raw.trim()}`);
  }
  return found;
}

const sheets = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.css'))
    .map((f) => join(dir, f));

const STYLESHEETS = [...sheets('components'), ...sheets('entrypoints')];

describe('the stylesheets', () => {
  it('are all read: the pages’, the popup parts’ and the theme', () => {
    expect(STYLESHEETS).toEqual(
      expect.arrayContaining([
        'components/theme.css',
        'entrypoints/popup/style.css',
        'entrypoints/options/style.css',
        'components/popup/redeem/dialog.css',
      ]),
    );
  });

  it('the check finds physical properties, and lets logical ones and explained exceptions pass', () => {
    const css = `.a { margin-left: 4px; padding: 1px 2px 3px 4px; text-align: right; border-radius: 4px 0 0 4px; left: 0; float: left; }
      .b { margin-inline-start: 4px; padding: 1px 2px 3px; padding: 1px 2px 3px 2px; text-align: end; border-radius: 4px; inset-inline: 0; content: "left"; }
      .c { /* physical: the drawing's own x runs left to right */ left: 0 }`;
    expect(physicalDeclarations(css)).toEqual([
      'margin-left: 4px',
      'padding: 1px 2px 3px 4px',
      'text-align: right',
      'border-radius: 4px 0 0 4px',
      'left: 0',
      'float: left',
    ]);
  });

  it.each(STYLESHEETS)('%s uses logical properties only (margin-inline, inset-inline, text-align: start…)', (file) => {
    expect(physicalDeclarations(readFileSync(join(ROOT, file), 'utf8'))).toEqual([]);
  });

  it('and no component places anything by left or right in an inline style', () => {
    const files = ['components', 'entrypoints'].flatMap((dir) =>
      readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
        .filter((f) => /\.tsx?$/.test(f))
        .map((f) => join(dir, f)),
    );
    const offending = files.filter((file) => {
      const source = readFileSync(join(ROOT, file), 'utf8');
      const styles = [...source.matchAll(/style=\{\{([^}]*)\}\}/g)].map((m) => m[1]!).join(' ');
      return (
        /\b(left|right|margin(Left|Right)|padding(Left|Right)|border(Left|Right)\w*)\s*:/.test(styles) ||
        /\.style\.(left|right)\b|setProperty\(\s*['"](left|right)/.test(source)
      );
    });
    expect(offending).toEqual([]);
  });
});

describe('the balance chart, right to left', () => {
  const NOW = Date.UTC(2026, 10, 23, 12);
  const at = (daysAgo: number, points: number): BalanceSample => ({ at: NOW - daysAgo * DAY_MS, points });
  let container: HTMLElement;
  beforeEach(() => {
    fakeBrowser.reset();
    container = page.newContainer();
  });
  afterEach(() => page.dropContainer(container));

  const slider = () => container.querySelector<HTMLElement>('[role=slider]')!;
  /** The chart once its samples are read. */
  const drawn = () => waitFor(() => expect(container.querySelector('[role=slider]')).not.toBeNull());
  const key = async (k: string) => {
    slider().dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
    await page.settle();
  };

  it('places its point from the start edge, and the left arrow goes on in time as the drawing runs leftwards', async () => {
    installI18n('ar');
    await balanceHistoryItem.setValue([at(60, 1000), at(20, 1500), at(3, 2250)]);
    await page.mountInto(container, <BalanceSection now={NOW} />);
    await drawn();
    const dot = container.querySelector<HTMLElement>('.chart-dot')!;
    expect(dot.style.getPropertyValue('inset-inline-start')).toMatch(/%$/);
    expect(dot.style.getPropertyValue('left')).toBe('');
    const last = slider().getAttribute('aria-valuenow');
    await key('ArrowRight');
    expect(Number(slider().getAttribute('aria-valuenow'))).toBe(Number(last) - 1);
    await key('ArrowLeft');
    expect(slider().getAttribute('aria-valuenow')).toBe(last);
  });

  it('left to right, the right arrow goes on in time', async () => {
    await balanceHistoryItem.setValue([at(60, 1000), at(20, 1500), at(3, 2250)]);
    await page.mountInto(container, <BalanceSection now={NOW} />);
    await drawn();
    const last = slider().getAttribute('aria-valuenow');
    await key('ArrowLeft');
    expect(Number(slider().getAttribute('aria-valuenow'))).toBe(Number(last) - 1);
    await key('ArrowRight');
    expect(slider().getAttribute('aria-valuenow')).toBe(last);
  });
});
