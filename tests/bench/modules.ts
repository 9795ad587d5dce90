/**
 * Which module each byte of a built script came from, read from the build's source map: every
 * mapping's span of generated code, up to the next mapping on its line, belongs to the mapping's
 * source; bytes no mapping covers (the bundler's glue) are a row of their own. Sources are grouped
 * by package (anything under node_modules) or by source file (ours), so a row is what one could
 * remove or replace.
 *
 * Gzip does not add up by module: a module compressed alone is larger than its share of the whole.
 * So each row gives both what it is alone (`gzipAlone`) and what the whole script would lose without
 * its bytes (`gzipSaved`: the gzip of the script minus that of the script with the module's spans
 * cut out), which is what slimming it would buy.
 */
import { eachMapping, TraceMap, type EncodedSourceMap } from '@jridgewell/trace-mapping';
import { gzipSync } from 'node:zlib';

export interface ModuleSize {
  /** A package name (`valibot`, `@webext-core/messaging`), a source path from the repository's root, or UNMAPPED. */
  module: string;
  raw: number;
  gzipAlone: number;
  gzipSaved: number;
}

export interface ScriptModules {
  file: string;
  raw: number;
  gzip: number;
  /** Largest first, by raw bytes. */
  modules: ModuleSize[];
}

export const UNMAPPED = '(bundler glue: no source)';
/** Bundlers name their own helpers with a `\0` prefix or a scheme (`rolldown:runtime`). */
const RUNTIME = '(bundler runtime)';

const gzip = (text: string) => gzipSync(Buffer.from(text, 'utf8'), { level: 9 }).length;

/**
 * The row a source belongs to. `source` is the map's entry resolved against the repository's root
 * (`node_modules/ofetch/dist/index.mjs`, `utils/format.ts`); nested installs count for the innermost package.
 */
export function moduleOf(source: string): string {
  if (source.startsWith('\0') || /^[a-z-]+:/i.test(source)) return RUNTIME;
  const parts = source.replace(/\\/g, '/').split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at === -1) return parts.filter((p) => p !== '.' && p !== '..').join('/');
  const name = parts[at + 1] ?? '';
  return name.startsWith('@') ? `${name}/${parts[at + 2] ?? ''}` : name;
}

/** Offsets (UTF-16, as source map columns count) where each line of `code` starts and ends, newline excluded. */
function lines(code: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let start = 0;
  for (;;) {
    const end = code.indexOf('\n', start);
    if (end === -1) {
      out.push([start, code.length]);
      return out;
    }
    out.push([start, end]);
    start = end + 1;
  }
}

/**
 * Generated spans per row, as [start, end) offsets into `code`; what no mapping covers (code before
 * a line's first mapping, newlines, segments without a source) is UNMAPPED, so the rows cover the
 * whole script once. `resolve` turns a map's source into a path from the repository's root (the
 * map's sources are relative to the script).
 */
export function spansByModule(
  code: string,
  map: EncodedSourceMap,
  resolve: (source: string) => string,
): Map<string, Array<[number, number]>> {
  const mapped: Array<[number, number, string]> = [];
  const bounds = lines(code);
  let previous: { line: number; column: number; row: string } | null = null;
  const close = (line: number, column: number) => {
    if (!previous) return;
    const [lineStart, lineEnd] = bounds[previous.line - 1] ?? [code.length, code.length];
    const end = previous.line === line ? Math.min(lineStart + column, lineEnd) : lineEnd;
    if (end > lineStart + previous.column) mapped.push([lineStart + previous.column, end, previous.row]);
  };
  // Mappings come in generated order: each one ends the span of the one before it on its line.
  eachMapping(new TraceMap(map), (m) => {
    close(m.generatedLine, m.generatedColumn);
    previous = {
      line: m.generatedLine,
      column: m.generatedColumn,
      row: m.source === null ? UNMAPPED : moduleOf(resolve(m.source)),
    };
  });
  close(-1, 0);
  const spans = new Map<string, Array<[number, number]>>();
  const add = (row: string, start: number, end: number) => {
    if (end <= start) return;
    const list = spans.get(row) ?? [];
    const last = list[list.length - 1];
    if (last && last[1] === start) last[1] = end;
    else list.push([start, end]);
    spans.set(row, list);
  };
  let at = 0;
  for (const [start, end, row] of mapped.sort((a, b) => a[0] - b[0])) {
    add(UNMAPPED, at, start);
    add(row, Math.max(start, at), end);
    at = Math.max(at, end);
  }
  add(UNMAPPED, at, code.length);
  return spans;
}

/** The rows of one script, largest first; their raw bytes add up to the script's. */
export function scriptModules(
  file: string,
  code: string,
  map: EncodedSourceMap,
  resolve: (source: string) => string,
): ScriptModules {
  const spans = spansByModule(code, map, resolve);
  const whole = gzip(code);
  const modules = [...spans].map(([module, list]): ModuleSize => {
    const own = list.map(([s, e]) => code.slice(s, e)).join('');
    let rest = '';
    let at = 0;
    for (const [s, e] of list) {
      rest += code.slice(at, s);
      at = e;
    }
    rest += code.slice(at);
    return { module, raw: Buffer.byteLength(own, 'utf8'), gzipAlone: gzip(own), gzipSaved: whole - gzip(rest) };
  });
  modules.sort((a, b) => b.raw - a.raw || a.module.localeCompare(b.module));
  return { file, raw: Buffer.byteLength(code, 'utf8'), gzip: whole, modules };
}
