import { plainHttpAllowed } from './hosts';

/**
 * The extension pages' content security policy, in two layers, because the hosts images
 * may come from are only known at run time: the panel is often typed in by the panelist, and the
 * catalogue's image hosts come with the catalogue.
 *
 * - The manifest's policy (both browsers, every page and the worker) allows images only from the
 *   extension, `data:` and the places a panel or its catalogue's images may be (https anywhere;
 *   plain http on this machine only in a build that may reach a local panel), and no media at all.
 * - {@link imagePolicy} is what the popup adds as a `<meta>` policy before any reward HTML is
 *   shown: images only from the panel's own origin and the catalogue's image hosts. A second
 *   policy can only narrow the first; both browsers enforce one added by script (verified in
 *   Chromium and Firefox ESR, tests/e2e/reward-html.test.ts and firefox.test.ts).
 */

/** Where a panel on this machine may be: in the builds that may reach one (utils/base-url.ts, localPanelsInBuild). */
const LOCAL_PLACES = ['http://localhost:*', 'http://127.0.0.1:*'];

/**
 * The manifest's policy: images from the extension, `data:`, any https host (the catalogue's image
 * hosts come with the catalogue) and, only in a build that may reach a local panel, this machine.
 */
export function extensionPagesCsp(localPanels: boolean): string {
  return [
    "script-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-src 'none'",
    `img-src 'self' data: https:${localPanels ? ` ${LOCAL_PLACES.join(' ')}` : ''}`,
    "media-src 'none'",
  ].join('; ');
}

/** The policy of a build that may reach a local panel: the development, sandbox and panel-less builds. */
export const EXTENSION_PAGES_CSP = extensionPagesCsp(true);

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
