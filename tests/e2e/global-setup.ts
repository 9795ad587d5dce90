import { execFileSync } from 'node:child_process';
import { E2E_OUT_DIR, E2E_SANDBOX_PORT } from './config';

/** One production build for the whole run, pointed at the sandbox the tests start. */
export default function setup(): void {
  if (process.env.E2E_SKIP_BUILD === '1') return;
  execFileSync('npx', ['wxt', 'build', '--browser', 'chrome'], {
    stdio: 'inherit',
    env: { ...process.env, PANEL_OUT_DIR: E2E_OUT_DIR, PANEL_API_BASE_URL: `http://127.0.0.1:${E2E_SANDBOX_PORT}` },
  });
}
