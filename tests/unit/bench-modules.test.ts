/**
 * The bench's reading of which module each byte of a built script came from (tests/bench/modules.ts),
 * on a script and source map written by hand, and its table (tests/bench/report-modules.ts).
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import type { BackgroundSize } from '../bench/background-size';
import { moduleOf, scriptModules, spansByModule, UNMAPPED } from '../bench/modules';
import { modulesTable } from '../bench/report-modules';

/** The map's sources sit two folders below the repository's root, as a built script's do. */
const fromRoot = (source: string) => source.replace(/^(\.\.\/)+/, '');

/**
 * "ab€de" then a line "xyz": the first segment (column 0) comes from a package, the second (column
 * 3, after the three UTF-16 units "ab€") from our source file; the second line's only segment has no
 * source. Segments: AAAA = column 0, source 0; GCAA = column +3, source +1; C = column 1, no source.
 */
const code = 'ab€de\nxyz';
const map = {
  version: 3 as const,
  file: 'background.js',
  sources: ['../../node_modules/pkg/index.js', '../../utils/a.ts'],
  names: [],
  mappings: 'AAAA,GCAA;C',
};

describe('moduleOf', () => {
  test('a package is named by its folder under node_modules, a scoped one with its scope, a nested one by the innermost', () => {
    expect(moduleOf('node_modules/ofetch/dist/index.mjs')).toBe('ofetch');
    expect(moduleOf('node_modules/@webext-core/messaging/dist/index.mjs')).toBe('@webext-core/messaging');
    expect(moduleOf('node_modules/a/node_modules/ufo/dist/index.mjs')).toBe('ufo');
  });

  test('our source files are named by their path from the root; the bundler’s own helpers are one row', () => {
    expect(moduleOf('entrypoints/background/store/store.ts')).toBe('entrypoints/background/store/store.ts');
    expect(moduleOf('\0rolldown/runtime.js')).toBe('(bundler runtime)');
    expect(moduleOf('rolldown:runtime')).toBe('(bundler runtime)');
  });
});

describe('spansByModule', () => {
  test('each mapping owns the code up to the next one on its line; what none covers is the glue', () => {
    const spans = spansByModule(code, map, fromRoot);
    const text = (row: string) => (spans.get(row) ?? []).map(([s, e]) => code.slice(s, e)).join('|');
    expect(text('pkg')).toBe('ab€');
    expect(text('utils/a.ts')).toBe('de');
    // The newline, and the second line whose only segment names no source.
    expect(text(UNMAPPED)).toBe('\nxyz');
  });
});

describe('scriptModules', () => {
  const result = scriptModules('background.js', code, map, fromRoot);

  test('raw sizes are UTF-8 bytes and add up to the whole script', () => {
    const raw = Object.fromEntries(result.modules.map((m) => [m.module, m.raw]));
    // "€" is three bytes in UTF-8 but one column.
    expect(raw).toEqual({ pkg: 5, 'utils/a.ts': 2, [UNMAPPED]: 4 });
    expect(result.raw).toBe(Buffer.byteLength(code));
    expect(result.modules.reduce((n, m) => n + m.raw, 0)).toBe(result.raw);
  });

  test('largest first; gzip alone is the module compressed by itself, saved what the whole loses without it', () => {
    expect(result.modules.map((m) => m.module)).toEqual(['pkg', UNMAPPED, 'utils/a.ts']);
    const pkg = result.modules[0]!;
    expect(pkg.gzipAlone).toBe(gzipSync('ab€', { level: 9 }).length);
    expect(pkg.gzipSaved).toBe(result.gzip - gzipSync('de\nxyz', { level: 9 }).length);
    expect(result.gzip).toBe(gzipSync(code, { level: 9 }).length);
  });
});

describe('modulesTable', () => {
  const chrome = scriptModules('background.js', code, map, fromRoot);
  const firefox = { ...chrome, modules: chrome.modules.filter((m) => m.module !== 'utils/a.ts') };
  const size: BackgroundSize = {
    chrome: [chrome],
    firefox: [firefox],
    sameAsRelease: { chrome: true, firefox: false },
  };
  const table = modulesTable(size);

  test('one row per module in either build, a dash where a build has none of it', () => {
    const row = table.find((line) => line.startsWith('| utils/a.ts |'));
    expect(row).toBe('| utils/a.ts | 2 | 22 | ' + `${chrome.modules[2]!.gzipSaved} | – | – | – |`);
  });

  test('says loudly when the bytes read are not the release build’s', () => {
    expect(table[0]).toContain('Chrome yes, Firefox **NO**');
  });
});
