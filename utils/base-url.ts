import { canonicalOrigin, hostOf, plainHttpAllowed, PLAIN_HTTP_HOSTS } from './hosts';
import { t } from './i18n';

/**
 * Checking the API base URL a panelist types. Shared by the options page, which refuses
 * before sending, and the background, which must not trust what a page sends.
 */

export type BaseUrlCheck =
  | { ok: true; /** Normalised: no trailing slash, no query or fragment. */ baseUrl: string; origin: string }
  | { ok: false; message: string };

export function checkBaseUrl(input: string): BaseUrlCheck {
  const text = input.trim();
  if (!text) return { ok: false, message: t('urlEmpty') };

  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: t('urlIncomplete', text) };
  }

  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, message: t('urlScheme') };
  }
  if (!url.hostname) return { ok: false, message: t('urlNoHost') };
  // Plain http only where nothing crosses a network: this machine, however its name is spelled.
  if (url.protocol === 'http:' && !plainHttpAllowed(url)) {
    return { ok: false, message: t('urlPlainHttp') };
  }
  // A token must never be sent alongside credentials embedded in an address someone pasted.
  if (url.username || url.password) {
    return { ok: false, message: t('urlCredentials') };
  }
  // Endpoint paths are appended to the base URL; a query or fragment would end up in the middle.
  if (url.search || url.hash) {
    return { ok: false, message: t('urlQuery') };
  }

  // The host in its canonical form (`Panel.Example.` → `panel.example`): one spelling of the panel's
  // origin for the host permission, the image rule and every comparison after.
  const origin = canonicalOrigin(url);
  if (origin === null) return { ok: false, message: t('urlNoHost') };
  const path = url.pathname.replace(/\/+$/, '');
  return { ok: true, baseUrl: `${origin}${path}`, origin };
}

/**
 * The host permission pattern for an origin. Firefox refuses a port in a match pattern, and Chrome
 * reads a pattern without one as "any port", so the port is left out on purpose.
 */
export function hostPermissionPattern(origin: string): string {
  const url = new URL(origin);
  return `${url.protocol}//${hostOf(url)?.name ?? url.hostname}/*`;
}

/** Local panels: a development sandbox, or a panel's own test server on this machine. */
export const LOCAL_HOST_PATTERNS: readonly string[] = ['http://localhost/*', 'http://127.0.0.1/*'];

/**
 * Whether a build may reach a panel on this machine: only one made for a local sandbox (`npm start`,
 * the browser tests and the benchmarks point at one on 127.0.0.1) or one that names no panel, whose
 * panelist types the address. A build for an https panel never asks for local host access: a
 * panelist could be talked into sending their key to a local server, and a store reviewer would
 * rightly ask why a release build wants it.
 */
export function localPanelsInBuild(buildApiBaseUrl: string): boolean {
  if (!buildApiBaseUrl) return true;
  // This machine by the names the local patterns grant, however the setting spells it (utils/hosts.ts).
  return PLAIN_HTTP_HOSTS.includes(hostOf(new URL(buildApiBaseUrl))?.name ?? '');
}

/**
 * The origins a panelist may grant on Connect (the manifest's optional host permissions): any
 * https:// panel only when the build names none, local panels only where {@link localPanelsInBuild}
 * allows them. A build made with `apiBaseUrl` has that origin at install and asks for no other
 * public one: a build asks for no more than it uses.
 */
export function optionalHostPatterns(buildApiBaseUrl: string): string[] {
  return [
    ...(buildApiBaseUrl ? [] : ['https://*/*']),
    ...(localPanelsInBuild(buildApiBaseUrl) ? LOCAL_HOST_PATTERNS : []),
  ];
}

/** Whether a build made with `buildApiBaseUrl` may connect to `origin` (one checkBaseUrl accepted). */
export function reachableByBuild(origin: string, buildApiBaseUrl: string): boolean {
  if (!buildApiBaseUrl) return true;
  const pattern = hostPermissionPattern(origin);
  return (
    pattern === hostPermissionPattern(buildApiBaseUrl) ||
    (localPanelsInBuild(buildApiBaseUrl) && LOCAL_HOST_PATTERNS.includes(pattern))
  );
}
