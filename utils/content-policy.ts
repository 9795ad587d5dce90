import { plainHttpAllowed } from './hosts';

/**
 * The extension pages' content security policy, in two layers, because the hosts images
 * may come from are only known at run time: the panel is often typed in by the panelist, and the
 * catalogue's image hosts come with the catalogue.
 *
 * - The manifest's policy (both browsers, every page and the worker) allows images only from the
 *   extension, `data:` and the places a panel may be (https anywhere, plain http on this machine,
 *   as for the API address), and no media at all.
 * - {@link imagePolicy} is what the popup adds as a `<meta>` policy before any reward HTML is
 *   shown: images only from the panel's own origin and the catalogue's image hosts. A second
 *   policy can only narrow the first; both browsers enforce one added by script (verified in
 *   Chromium and Firefox ESR, tests/e2e/reward-html.test.ts and firefox.test.ts).
 */

/** Where a panel, and so its images, may be: as utils/base-url.ts accepts an API address. */
const PANEL_PLACES = ['https:', 'http://localhost:*', 'http://127.0.0.1:*'];

export const EXTENSION_PAGES_CSP = [
  "script-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-src 'none'",
  `img-src 'self' data: ${PANEL_PLACES.join(' ')}`,
  "media-src 'none'",
].join('; ');

/** The origin an image URL loads from, when it is one a policy may name: https, or http on this machine (utils/hosts.ts). */
export function imageOrigin(url: string | undefined | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'https:' || plainHttpAllowed(parsed)) return parsed.origin;
  } catch {
    // Not a URL: nothing to allow.
  }
  return null;
}

/** The run-time policy: images from `origins` (already checked by {@link imageOrigin}), `data:` and the extension only. */
export function imagePolicy(origins: Iterable<string>): string {
  return [`img-src 'self' data:${[...new Set(origins)].map((o) => ` ${o}`).join('')}`, "media-src 'none'"].join('; ');
}
