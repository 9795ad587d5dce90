/**
 * `npm start`: the sandbox panel API on 127.0.0.1:8787 plus a development build of the extension
 * pointed at it (URL and token prefilled, sign-in through the sandbox — development builds only). Opens Chromium with the
 * extension loaded when there is a display; otherwise says how to load it by hand.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SANDBOX_DEV_URL } from '../../utils/build-settings';
import { OAUTH_PATHS, SANDBOX_CLIENT_ID, SANDBOX_EMAIL, SANDBOX_PASSWORD } from '../sandbox/oauth';
import { startSandbox } from '../sandbox/server';

const DEV_DIR = resolve('.output/chrome-mv3-dev');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const sandbox = await startSandbox({ port: Number(new URL(SANDBOX_DEV_URL).port) });
console.log(
  `Sandbox panel API: ${sandbox.url}\nAccess token:      ${sandbox.token}\n` +
    `Sign in with:      ${SANDBOX_EMAIL} / ${SANDBOX_PASSWORD}\n`,
);

const children: ChildProcess[] = [];
const dev = spawn('npx', ['wxt'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PANEL_API_BASE_URL: sandbox.url,
    PANEL_DEV_TOKEN: sandbox.token,
    // "Sign in to …" goes to the sandbox's own authorization server.
    PANEL_OAUTH_AUTHORIZATION_ENDPOINT: `${sandbox.url}${OAUTH_PATHS.authorize}`,
    PANEL_OAUTH_TOKEN_ENDPOINT: `${sandbox.url}${OAUTH_PATHS.token}`,
    PANEL_OAUTH_CLIENT_ID: SANDBOX_CLIENT_ID,
  },
});
children.push(dev);

const stop = async () => {
  for (const child of children) child.kill('SIGTERM');
  await sandbox.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
dev.on('exit', () => void stop());

await waitFor(() => existsSync(join(DEV_DIR, 'manifest.json')));
if (process.env.DISPLAY && existsSync(CHROMIUM)) {
  const profile = mkdtempSync(join(tmpdir(), 'panel-dev-'));
  children.push(
    spawn(
      CHROMIUM,
      [`--user-data-dir=${profile}`, `--load-extension=${DEV_DIR}`, '--no-first-run', 'chrome://extensions'],
      { stdio: 'ignore' },
    ),
  );
  console.log('\nChromium is open with the extension loaded.');
} else {
  console.log(
    `\nNo display here, so no browser was opened. To load the extension by hand: open chrome://extensions,\n` +
      `turn on Developer mode, choose "Load unpacked" and pick ${DEV_DIR}\n` +
      `(Firefox: about:debugging → This Firefox → Load Temporary Add-on → any file in .output/firefox-mv2-dev after \`npx wxt -b firefox\`).`,
  );
}

async function waitFor(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 250));
}
