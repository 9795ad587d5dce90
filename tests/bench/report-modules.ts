/** The background, module by module, as a Markdown table (`npm run bench:size`, and results.md). */
import type { BackgroundSize } from './background-size';
import type { ModuleSize, ScriptModules } from './modules';

const kib = (n: number) => (n / 1024).toFixed(1);
const bytes = (n: number | undefined) => (n === undefined ? '–' : n.toLocaleString('en'));

/** A browser's scripts as one list of rows (a row's bytes summed over its scripts). */
function rows(scripts: ScriptModules[]): Map<string, ModuleSize> {
  const out = new Map<string, ModuleSize>();
  for (const script of scripts)
    for (const m of script.modules) {
      const row = out.get(m.module) ?? { module: m.module, raw: 0, gzipAlone: 0, gzipSaved: 0 };
      out.set(m.module, {
        module: m.module,
        raw: row.raw + m.raw,
        gzipAlone: row.gzipAlone + m.gzipAlone,
        gzipSaved: row.gzipSaved + m.gzipSaved,
      });
    }
  return out;
}

const total = (scripts: ScriptModules[], key: 'raw' | 'gzip') => scripts.reduce((n, s) => n + s[key], 0);
const isPackage = (module: string) => !module.includes('/') || module.startsWith('@');

export function modulesTable(size: BackgroundSize): string[] {
  const chrome = rows(size.chrome);
  const firefox = rows(size.firefox);
  const names = [...new Set([...chrome.keys(), ...firefox.keys()])].sort(
    (a, b) => (chrome.get(b)?.raw ?? 0) - (chrome.get(a)?.raw ?? 0) || a.localeCompare(b),
  );
  const share = (list: Map<string, ModuleSize>, pick: (m: string) => boolean) =>
    kib([...list.values()].filter((m) => pick(m.module) && !m.module.startsWith('(')).reduce((n, m) => n + m.raw, 0));
  const same = (v: boolean | null) => (v === null ? 'not compared' : v ? 'yes' : '**NO**');
  return [
    `Background: Chrome ${size.chrome.map((s) => s.file).join(', ')} **${kib(total(size.chrome, 'gzip'))} KiB gzip**, ` +
      `${kib(total(size.chrome, 'raw'))} KiB raw (packages ${share(chrome, isPackage)}, our modules ` +
      `${share(chrome, (m) => !isPackage(m))}); Firefox ${size.firefox.map((s) => s.file).join(', ')} ` +
      `**${kib(total(size.firefox, 'gzip'))} KiB gzip**, ${kib(total(size.firefox, 'raw'))} KiB raw. ` +
      `Same bytes as the release build measured: Chrome ${same(size.sameAsRelease.chrome)}, Firefox ${same(size.sameAsRelease.firefox)}. ` +
      'Bytes; "alone": the module gzipped by itself (gzip -9); "saved": what the whole script\'s gzip would lose without it.',
    '',
    '| module (package, or source file) | Chrome raw | gzip alone | gzip saved | Firefox raw | gzip alone | gzip saved |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...names.map((name) => {
      const [c, f] = [chrome.get(name), firefox.get(name)];
      return `| ${name} | ${bytes(c?.raw)} | ${bytes(c?.gzipAlone)} | ${bytes(c?.gzipSaved)} | ${bytes(f?.raw)} | ${bytes(f?.gzipAlone)} | ${bytes(f?.gzipSaved)} |`;
    }),
  ];
}

/** One script's rows, largest first: what each module costs it (the popup's first load, `npm run bench:size`). */
export function scriptTable(script: ScriptModules): string[] {
  return [
    `**${script.file}**: ${bytes(script.raw)} bytes, ${kib(script.gzip)} KiB gzip`,
    '',
    '| module | raw | gzip alone | gzip saved |',
    '|---|---:|---:|---:|',
    ...script.modules.map((m) => `| ${m.module} | ${bytes(m.raw)} | ${bytes(m.gzipAlone)} | ${bytes(m.gzipSaved)} |`),
    '',
  ];
}
