import { execFileSync } from 'node:child_process';
import { E2E_OUT_DIR, E2E_SANDBOX_PORT } from './config';

/** One production build per browser for the whole run, pointed at the sandbox the tests start. */
export default function setup(): void {
  if (process.env.E2E_SKIP_BUILD === '1') return;
  const env = {
    ...process.env,
    PANEL_OUT_DIR: E2E_OUT_DIR,
    // The tests' own settings only, whatever panel.config.json a developer keeps here.
    PANEL_CONFIG: 'none',
    PANEL_API_BASE_URL: `http://127.0.0.1:${E2E_SANDBOX_PORT}`,
    // The options page links to it ("Where do I find this?"); never opened by a test.
    PANEL_TOKEN_HELP_URL: 'https://panel.example.com/help/personal-key',
  };
  for (const browser of ['chrome', 'firefox']) {
    execFileSync('npx', ['wxt', 'build', '--browser', browser], { stdio: 'inherit', env });
  }
}
