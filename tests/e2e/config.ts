/** Where end-to-end tests build and find things. The sandbox port is fixed because it is baked into the build. */
export const E2E_SANDBOX_PORT = Number(process.env.E2E_SANDBOX_PORT ?? 8791);
export const E2E_OUT_DIR = '.output/e2e';
export const E2E_EXTENSION_DIR = `${E2E_OUT_DIR}/chrome-mv3`;
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Flags recorded in ../shared/notes/browser-testing.md: without the networking ones Chromium
// tries to reach Google's hosts, which this machine refuses. Shared with the benchmark.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];
