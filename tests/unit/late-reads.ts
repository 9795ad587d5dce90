/**
 * Reads that answer late, on request (a setup file of the unit project). With LATE_READS=key[,key…]
 * (`npm run test:late-reads` runs the page tests once a key), every storage.local.get that asks for
 * one of those keys answers 40 ms after the others: a test that waited for one item's state and
 * then asserted another's at once fails. Unset, as in `npm test`, nothing changes.
 *
 * The rule it checks (tests/e2e/README.md, "Passing on a busy machine"): wait for the state you
 * assert. Each item a page reads on its own arrives in its own turn: the popup's main.tsx reads the
 * first frame's items before the first render, but a test that mounts the app reads each on its
 * own, and the catalogue and the history are read late in the real popup too.
 */
import { fakeBrowser } from 'wxt/testing/fake-browser';

const LATE_MS = 40;
const late = new Set((process.env.LATE_READS ?? '').split(',').filter(Boolean));

if (late.size > 0) {
  const local = fakeBrowser.storage.local;
  const get = local.get.bind(local);
  const asked = (keys: unknown): string[] =>
    keys === null || keys === undefined
      ? []
      : typeof keys === 'string'
        ? [keys]
        : Array.isArray(keys)
          ? keys
          : Object.keys(keys);
  local.get = async (keys?: Parameters<typeof get>[0]) => {
    const values = await get(keys);
    if (asked(keys).some((key) => late.has(key))) await new Promise((resolve) => setTimeout(resolve, LATE_MS));
    return values;
  };
}
