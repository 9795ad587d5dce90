/**
 * The browser tests' builds. A build is made at most once per run in each lane (config.ts): the
 * first file of the run that needs it makes it, the others find it made. Before, each file that
 * used the sign-in build made it again (seven builds where two would do).
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { withBuildLock, withBuildLockAsync } from '../tools/build-lock';
import { E2E_OUT_DIR, E2E_SANDBOX_PORT } from './config';

export type BrowserName = 'chrome' | 'firefox';
export const buildFolder = (browser: BrowserName) => (browser === 'chrome' ? 'chrome-mv3' : 'firefox-mv2');

/** This run's id (global-setup.ts); none outside a vitest run, where a build is made whenever asked. */
function runId(): string | null {
  try {
    return inject('e2eRun') ?? null;
  } catch {
    return null;
  }
}

/**
 * Builds `browser` into `outDir` with the given `PANEL_…` settings, the tests' own only (whatever
 * panel.config.json a developer keeps here), unless this run already built it there, or
 * `E2E_SKIP_BUILD=1` and a build is there. Returns the build's directory.
 */
export function buildOnce(outDir: string, browser: BrowserName, settings: Record<`PANEL_${string}`, string>): string {
  const build = planBuild(outDir, browser, settings);
  if (!build.needed) return build.dir;
  withBuildLock(() =>
    execFileSync('node_modules/.bin/wxt', build.args, { stdio: ['ignore', 'ignore', 'inherit'], env: build.env }),
  );
  return build.done();
}

/**
 * The same, without blocking this process while wxt builds: for a build that reads a server this
 * process runs (the OpenID provider's metadata, openid-build.ts).
 */
export async function buildOnceServing(
  outDir: string,
  browser: BrowserName,
  settings: Record<`PANEL_${string}`, string>,
): Promise<string> {
  const build = planBuild(outDir, browser, settings);
  if (!build.needed) return build.dir;
  await withBuildLockAsync(() => promisify(execFile)('node_modules/.bin/wxt', build.args, { env: build.env }));
  return build.done();
}

function planBuild(outDir: string, browser: BrowserName, settings: Record<`PANEL_${string}`, string>) {
  const dir = `${outDir}/${buildFolder(browser)}`;
  const made = existsSync(`${dir}/manifest.json`);
  // Beside the build, not in it: wxt empties the build's own folder, and the extension would ship the file.
  const stamp = `${outDir}/.${buildFolder(browser)}.run`;
  const run = runId();
  const needed = !(
    (made && process.env.E2E_SKIP_BUILD === '1') ||
    (made && run !== null && existsSync(stamp) && readFileSync(stamp, 'utf8') === run)
  );
  return {
    dir,
    needed,
    args: ['build', '--browser', browser],
    env: { ...process.env, PANEL_OUT_DIR: outDir, PANEL_CONFIG: 'none', ...settings },
    done(): string {
      mkdirSync(outDir, { recursive: true });
      if (run !== null) writeFileSync(stamp, run);
      return dir;
    },
  };
}

/** The plain build most browser tests load: a production build pointed at this lane's sandbox. */
export function plainBuild(browser: BrowserName): string {
  return buildOnce(E2E_OUT_DIR, browser, {
    PANEL_API_BASE_URL: `http://127.0.0.1:${E2E_SANDBOX_PORT}`,
    // The options page links to it ("Where do I find this?"); never opened by a test.
    PANEL_TOKEN_HELP_URL: 'https://panel.example.com/help/personal-key',
  });
}
