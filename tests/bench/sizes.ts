/**
 * Bytes each context loads, raw and gzip (level 9), read from the built output: a page's first
 * load is its HTML's entry script, its static imports and its stylesheets; its lazy part is what
 * only dynamic import() reaches from there.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface FileSize {
  file: string;
  raw: number;
  gzip: number;
}

export interface Bundle {
  js: { raw: number; gzip: number };
  css: { raw: number; gzip: number };
  total: { raw: number; gzip: number };
  files: FileSize[];
}

export interface SizeReport {
  /** `firstFrame`: what paints the first frame (the classic script and the stylesheets); `html`: popup.html. */
  popup: { first: Bundle; lazy: Bundle; firstFrame: Bundle; html: FileSize };
  options: { first: Bundle; lazy: Bundle };
  background: Bundle;
  zip: { file: string; bytes: number };
}

const STATIC = /(?:\bimport|\bexport)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["'`](\.{1,2}\/[^"'`]+)["'`]/g;
const DYNAMIC = /\bimport\(\s*["'`](\.{1,2}\/[^"'`]+)["'`]\s*\)/g;
/** Vite lists a lazy chunk's own dependencies (JS and CSS) root-relative in __vite__mapDeps. */
const MAP_DEPS = /m\.f=\[([^\]]*)\]/g;

function fileSize(root: string, file: string): FileSize {
  const bytes = readFileSync(join(root, file));
  return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

function bundle(root: string, files: Iterable<string>): Bundle {
  const sizes = [...files].sort().map((file) => fileSize(root, file));
  const sum = (pick: (f: FileSize) => boolean) => ({
    raw: sizes.filter(pick).reduce((n, f) => n + f.raw, 0),
    gzip: sizes.filter(pick).reduce((n, f) => n + f.gzip, 0),
  });
  return {
    js: sum((f) => f.file.endsWith('.js')),
    css: sum((f) => f.file.endsWith('.css')),
    total: sum(() => true),
    files: sizes,
  };
}

/** Root-relative paths imported by a JS file: [static, dynamic]. */
function imports(root: string, file: string): [string[], string[]] {
  const code = readFileSync(join(root, file), 'utf8');
  const resolveFrom = (spec: string) => posix.normalize(posix.join(posix.dirname(file), spec));
  const statics = [...code.matchAll(STATIC)].map((m) => resolveFrom(m[1]!));
  const dynamics = [...code.matchAll(DYNAMIC)].map((m) => resolveFrom(m[1]!));
  for (const list of code.matchAll(MAP_DEPS)) {
    for (const dep of list[1]!.matchAll(/["'`]([^"'`]+)["'`]/g)) dynamics.push(posix.normalize(dep[1]!));
  }
  return [statics, dynamics];
}

/** Everything statically reachable from `entries`, and what dynamic imports add on top. */
function split(root: string, entries: string[]): { first: Set<string>; lazy: Set<string> } {
  const first = new Set<string>();
  const lazyRoots: string[] = [];
  const walk = (file: string, into: Set<string>, exclude: Set<string>) => {
    if (into.has(file) || exclude.has(file)) return;
    into.add(file);
    if (!file.endsWith('.js')) return;
    const [statics, dynamics] = imports(root, file);
    statics.forEach((dep) => walk(dep, into, exclude));
    lazyRoots.push(...dynamics);
  };
  entries.forEach((entry) => walk(entry, first, new Set()));
  const lazy = new Set<string>();
  for (let i = 0; i < lazyRoots.length; i += 1) walk(lazyRoots[i]!, lazy, first);
  return { first, lazy };
}

/**
 * Entry scripts, modulepreloads and stylesheets named by a built page; the popup's app is named by
 * its first-frame script's `data-app`, which starts it (utils/build/first-frame-html.ts).
 */
function pageEntries(root: string, html: string): string[] {
  const text = readFileSync(join(root, html), 'utf8');
  const tags = [...text.matchAll(/<(?:script|link)\b[^>]*>/g)].map((m) => m[0]);
  return tags.flatMap((tag) =>
    [...tag.matchAll(/\b(?:src|href|data-app)="\/?([^"]+\.(?:js|css))"/g)].map((m) => m[1]!),
  );
}

/** The popup's first load (scripts and stylesheets, root-relative), as measureSizes counts it. */
export function popupFirstLoad(extensionDir: string): string[] {
  return [...split(extensionDir, pageEntries(extensionDir, 'popup.html')).first].sort();
}

export function measureSizes(extensionDir: string, zipPath: string): SizeReport {
  const page = (html: string) => {
    const { first, lazy } = split(extensionDir, pageEntries(extensionDir, html));
    return { first: bundle(extensionDir, first), lazy: bundle(extensionDir, lazy) };
  };
  const manifest = JSON.parse(readFileSync(join(extensionDir, 'manifest.json'), 'utf8'));
  const worker: string = manifest.background?.service_worker ?? 'background.js';
  const popup = page('popup.html');
  const firstFrame = bundle(
    extensionDir,
    popup.first.files.map((f) => f.file).filter((f) => f === 'first-frame.js' || f.endsWith('.css')),
  );
  return {
    popup: { ...popup, firstFrame, html: fileSize(extensionDir, 'popup.html') },
    options: page('options.html'),
    background: bundle(extensionDir, split(extensionDir, [worker]).first),
    zip: { file: relative(dirname(extensionDir), zipPath), bytes: statSync(zipPath).size },
  };
}
