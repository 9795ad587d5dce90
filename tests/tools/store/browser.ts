/**
 * `npm run store` takes its screenshots in Chromium; without one it would build both stores' zips
 * first and then fail, leaving half a kit. This is checked before anything is built.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';

const INSTALL =
  'install Chromium (Debian, Ubuntu: sudo apt install chromium; Fedora: sudo dnf install chromium; macOS: brew install --cask chromium) ' +
  'or point CHROMIUM_PATH at a Chromium or Google Chrome you have ' +
  '(e.g. CHROMIUM_PATH="/Applications/Google Chrome.app/Contents/MacOS/Google Chrome" npm run store)';

/** What is wrong with the browser at `path` for the screenshots, or null when it runs. */
export function browserProblem(path: string, fromEnv: boolean): string | null {
  const named = fromEnv ? `CHROMIUM_PATH names ${path}` : `there is no Chromium at ${path}`;
  const lead = 'The store screenshots are taken in Chromium';
  if (!existsSync(path)) return `${lead}, and ${fromEnv ? `${named}, which does not exist` : named}: ${INSTALL}.`;
  try {
    if (!statSync(path).isFile()) throw new Error('not a file');
    accessSync(path, constants.X_OK);
  } catch {
    return `${lead}, and ${path} is not a program this user can run: ${INSTALL}.`;
  }
  // A stub (Ubuntu's chromium-browser without the snap, a wrapper missing its libraries) is found here, not after the build.
  const run = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 20_000 });
  if (run.error || run.status !== 0) {
    const said = `${run.stderr ?? ''}${run.stdout ?? ''}`.trim().split('\n')[0] ?? '';
    return `${lead}, and ${path} --version did not run (${run.error?.message ?? `exit ${run.status}`}${said ? `: ${said}` : ''}): ${INSTALL}.`;
  }
  return null;
}
