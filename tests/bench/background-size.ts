/**
 * What the background carries, module by module, in the Chrome and the Firefox build: each browser
 * built with size.config.ts (the release configuration plus hidden source maps) into
 * .output/bench-size, each background script read with its map (modules.ts). Used by
 * `npm run bench:size` and by `npm run bench`, which also checks that the scripts read here are the
 * very bytes its release build loads.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { BENCH_PORT } from './config';
import { scriptModules, type ScriptModules } from './modules';

export const SIZE_OUT_DIR = '.output/bench-size';

export interface BackgroundSize {
  chrome: ScriptModules[];
  firefox: ScriptModules[];
  /** Per browser: whether each script is byte for byte the one in the release build given (null: none given). */
  sameAsRelease: { chrome: boolean | null; firefox: boolean | null };
}

/** The background's scripts named by a built manifest (MV3: the service worker; MV2: the event page's scripts). */
function backgroundScripts(dir: string): string[] {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as {
    background?: { service_worker?: string; scripts?: string[] };
  };
  const { background } = manifest;
  return background?.service_worker ? [background.service_worker] : (background?.scripts ?? []);
}

/** Each script of `files` (root-relative in `dir`) read module by module from its source map. */
export function readScripts(dir: string, files: string[]): ScriptModules[] {
  return files.map((file) => {
    const path = join(dir, file);
    const map = JSON.parse(readFileSync(`${path}.map`, 'utf8'));
    // The map's sources are relative to the script; rows name them from the repository's root.
    const fromRoot = (source: string) => relative(process.cwd(), resolve(dirname(path), source));
    return scriptModules(file, readFileSync(path, 'utf8'), map, fromRoot);
  });
}

const read = (dir: string) => readScripts(dir, backgroundScripts(dir));

function sameBytes(dir: string, releaseDir: string | undefined): boolean | null {
  if (!releaseDir) return null;
  return backgroundScripts(dir).every((file) => {
    const release = join(releaseDir, file);
    return existsSync(release) && readFileSync(release).equals(readFileSync(join(dir, file)));
  });
}

/** Builds both browsers with source maps and reads their backgrounds; `release` dirs are compared byte for byte. */
export function measureBackground(release: { chrome?: string; firefox?: string } = {}): BackgroundSize {
  rmSync(SIZE_OUT_DIR, { recursive: true, force: true });
  const env = {
    ...process.env,
    PANEL_OUT_DIR: SIZE_OUT_DIR,
    PANEL_API_BASE_URL: `http://127.0.0.1:${BENCH_PORT}`,
    PANEL_CONFIG: 'none',
  };
  for (const browser of ['chrome', 'firefox'])
    execFileSync('npx', ['wxt', 'build', '--browser', browser, '-c', 'tests/bench/size.config.ts'], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env,
    });
  const chrome = join(SIZE_OUT_DIR, 'chrome-mv3');
  const firefox = join(SIZE_OUT_DIR, 'firefox-mv2');
  return {
    chrome: read(chrome),
    firefox: read(firefox),
    sameAsRelease: { chrome: sameBytes(chrome, release.chrome), firefox: sameBytes(firefox, release.firefox) },
  };
}
