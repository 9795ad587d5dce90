/**
 * Where the browser tests build and find things. Each vitest worker that runs browser tests is a
 * lane (vitest.config.ts) with its own sandbox ports and its own builds: the sandbox's address is
 * built into the extension (its panel address, the sign-in endpoints), so two lanes cannot share one.
 */

/** This worker's lane: vitest numbers its workers from 1; a tool outside vitest (the screenshots) is lane 1. */
export const E2E_LANE = Number(process.env.VITEST_POOL_ID ?? 1);
/**
 * The lane's sandbox port. Each lane takes two, the sandbox's and the OpenID provider's
 * beside it (openid-build.ts): `E2E_SANDBOX_PORT` (8791 unless set) and the next for the first
 * lane, the two after them for the second, and so on.
 */
export const E2E_SANDBOX_PORT = Number(process.env.E2E_SANDBOX_PORT ?? 8791) + 2 * (E2E_LANE - 1);
/** A build directory of this lane: the name itself in the first lane, `<name>-lane-<n>` in the others. */
export const laneDir = (dir: string): string => (E2E_LANE === 1 ? dir : `${dir}-lane-${E2E_LANE}`);
export const E2E_OUT_DIR = laneDir('.output/e2e');
export const E2E_EXTENSION_DIR = `${E2E_OUT_DIR}/chrome-mv3`;
/**
 * Where a browser test writes the README's pictures it takes on its way (phone-chromium.test.ts):
 * under .output in a test run, so `npm test` leaves the tree as it found it; `npm run screenshots`
 * points it at tests/e2e/screenshots.
 */
export const E2E_PICTURES_DIR = process.env.E2E_PICTURES_DIR ?? laneDir('.output/e2e-pictures');
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
