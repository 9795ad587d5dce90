/**
 * The permissions a build asks for, following its settings (wxt.config.ts):
 * only what this build can use, at install and optionally.
 *
 * - At install: storage, alarms and idle (none warns); the panel's API origin when the build names
 *   it, and the sign-in server's token and revocation origins.
 * - Optional, asked for on Connect: any https:// panel only when the build names none (a build made
 *   for one panel never asks for another public origin), and local panels (localhost, 127.0.0.1)
 *   only in a build for a local sandbox or for no panel (utils/base-url.ts, localPanelsInBuild):
 *   never in a release build for an https panel.
 * - With sign-in, at install: `declarativeNetRequestWithHostAccess`, no warning (the token and
 *   revocation requests leave without the extension's Origin: without-origin.ts).
 * - Optional, asked for when needed: `notifications` (the preferences), and on Chrome `identity`
 *   only in a build with sign-in. Firefox cannot make `identity` optional (its schema lists it
 *   among the permissions that need no prompt): a Firefox build with sign-in asks for it at install.
 */
import { hostPermissionPattern, optionalHostPatterns } from '../../base-url';
import { signInConfigured, type BuildSettings } from '../../build-settings';

/** APIs granted only when the panelist turns on what needs them (the preferences). */
const OPTIONAL_APIS = ['notifications'];

export interface ManifestPermissions {
  permissions: string[];
  host_permissions: string[];
  optional_host_permissions: string[];
  optional_permissions: string[];
}

export function manifestPermissions(
  settings: Pick<BuildSettings, 'apiBaseUrl' | 'oauth'>,
  manifestVersion: 2 | 3,
): ManifestPermissions {
  const apiOrigin = settings.apiBaseUrl ? hostPermissionPattern(settings.apiBaseUrl) : undefined;
  // The token and revocation endpoints are called by the background like the API, so their origins are granted too.
  const oauthOrigins = [settings.oauth.tokenEndpoint, settings.oauth.revocationEndpoint]
    .filter(Boolean)
    .map(hostPermissionPattern);
  const hosts = [...new Set([apiOrigin, ...oauthOrigins].filter((o): o is string => !!o))];
  const optionalHosts = optionalHostPatterns(settings.apiBaseUrl);
  const signIn = signInConfigured(settings);
  const identity = signIn ? ['identity'] : [];
  // The sign-in server's requests leave without the extension's Origin (entrypoints/background/auth/without-origin.ts):
  // header rules for hosts the build already has, which no browser warns of.
  const headerRules = signIn ? ['declarativeNetRequestWithHostAccess'] : [];
  return {
    permissions: ['storage', 'alarms', 'idle', ...headerRules, ...(manifestVersion === 2 ? identity : [])],
    // MV2 (Firefox): WXT moves these into `permissions`, granted at install.
    host_permissions: hosts,
    optional_host_permissions: optionalHosts,
    // MV2 has no optional_host_permissions (WXT drops the key without converting it): there the
    // origins go in optional_permissions, or Firefox refuses permissions.request() for them.
    optional_permissions:
      manifestVersion === 2 ? [...optionalHosts, ...OPTIONAL_APIS] : [...identity, ...OPTIONAL_APIS],
  };
}
