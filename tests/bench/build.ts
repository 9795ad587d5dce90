/**
 * The release build, zipped, into its own output directory and pointed at the benchmark's
 * sandbox. The blank baseline page is copied in afterwards, so the zip and every measured
 * bundle are exactly what a release build ships.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BENCH_EXTENSION_DIR, BENCH_OUT_DIR, BENCH_PORT } from './config';

export interface BuildOutput {
  extensionDir: string;
  zipPath: string;
  apiBaseUrl: string;
}

export function buildForBench(): BuildOutput {
  const apiBaseUrl = `http://127.0.0.1:${BENCH_PORT}`;
  rmSync(BENCH_OUT_DIR, { recursive: true, force: true });
  execFileSync('npx', ['wxt', 'zip', '--browser', 'chrome'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PANEL_OUT_DIR: BENCH_OUT_DIR, PANEL_API_BASE_URL: apiBaseUrl, PANEL_CONFIG: 'none' },
  });
  const zip = readdirSync(BENCH_OUT_DIR).find((name) => name.endsWith('-chrome.zip'));
  if (!zip) throw new Error(`wxt zip left no Chrome zip in ${BENCH_OUT_DIR}`);
  copyFileSync(new URL('./blank.html', import.meta.url), join(BENCH_EXTENSION_DIR, 'blank.html'));
  return { extensionDir: resolve(BENCH_EXTENSION_DIR), zipPath: resolve(BENCH_OUT_DIR, zip), apiBaseUrl };
}
