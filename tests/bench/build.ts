/**
 * The release build, zipped, into its own output directory and pointed at the benchmark's
 * sandbox, and the Firefox build beside it. The blank baseline page and the floor page are copied
 * into both afterwards, so the zip and every measured bundle are exactly what a release build ships.
 * Beside them, the minimal extension (tests/bench/minimal) whose worker the real one's wake-up is
 * measured against, built the same way.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { popupViewItem } from '../../utils/storage-items';
import { addFirefoxProbe } from './firefox-probe';
import { BENCH_EXTENSION_DIR, BENCH_FIREFOX_DIR, BENCH_MINIMAL_DIR, BENCH_OUT_DIR, BENCH_PORT } from './config';

export interface BuildOutput {
  extensionDir: string;
  firefoxDir: string;
  minimalDir: string;
  zipPath: string;
  apiBaseUrl: string;
}

/**
 * The floor: what the least a page can do to show the balance costs. A static header and a classic
 * script that reads the popup view from storage.local and writes the balance as text, through the
 * browser's own promise API as the popup's first-frame script reads it (Firefox's `browser`, else `chrome`).
 */
const FLOOR_SCRIPT = `const key = ${JSON.stringify(popupViewItem.key)};
(globalThis.browser ?? chrome).storage.local.get(key).then((stored) => {
  const points = stored[key]?.rewards?.balance?.points;
  document.querySelector('.hdr-balance').textContent = points == null ? '' : points + ' points';
});
`;

/** The blank page and the floor page, added to a built extension for the bench only. */
function addBenchPages(dir: string): void {
  copyFileSync(new URL('./blank.html', import.meta.url), join(dir, 'blank.html'));
  copyFileSync(new URL('./floor.html', import.meta.url), join(dir, 'floor.html'));
  writeFileSync(join(dir, 'floor.js'), FLOOR_SCRIPT);
  // An experiment on the built pages (a script given the extension's directory), measured without a
  // change to the source: the figures are then marked as not from a commit (run.ts).
  if (process.env.BENCH_PATCH) execFileSync('node', [process.env.BENCH_PATCH, dir], { stdio: 'inherit' });
}

export function buildForBench(): BuildOutput {
  const apiBaseUrl = `http://127.0.0.1:${BENCH_PORT}`;
  rmSync(BENCH_OUT_DIR, { recursive: true, force: true });
  const env = { ...process.env, PANEL_OUT_DIR: BENCH_OUT_DIR, PANEL_API_BASE_URL: apiBaseUrl, PANEL_CONFIG: 'none' };
  execFileSync('npx', ['wxt', 'zip', '--browser', 'chrome'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  const zip = readdirSync(BENCH_OUT_DIR).find((name) => name.endsWith('-chrome.zip'));
  if (!zip) throw new Error(`wxt zip left no Chrome zip in ${BENCH_OUT_DIR}`);
  execFileSync('npx', ['wxt', 'build', '--browser', 'firefox'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  addBenchPages(BENCH_EXTENSION_DIR);
  addBenchPages(BENCH_FIREFOX_DIR);
  addFirefoxProbe(BENCH_FIREFOX_DIR);
  execFileSync('npx', ['wxt', 'build', '--browser', 'chrome', 'tests/bench/minimal'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, BENCH_MINIMAL_OUT_DIR: resolve(BENCH_MINIMAL_DIR, '..') },
  });
  return {
    extensionDir: resolve(BENCH_EXTENSION_DIR),
    firefoxDir: resolve(BENCH_FIREFOX_DIR),
    minimalDir: resolve(BENCH_MINIMAL_DIR),
    zipPath: resolve(BENCH_OUT_DIR, zip),
    apiBaseUrl,
  };
}
