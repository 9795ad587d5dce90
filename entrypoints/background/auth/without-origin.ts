import { browser } from 'wxt/browser';
import { settings } from '../../../utils/settings';

/**
 * The sign-in server gets the extension's token, renewal and revocation requests without an
 * `Origin` header, as it gets a native app's (OPERATORS.md, "The Origin the sign-in server sees").
 * A browser puts the extension's own origin on every POST its background sends:
 * `chrome-extension://<id>`, and in Firefox `moz-extension://<uuid>`, a random UUID per
 * installation that no server can list in advance. A server that checks `Origin` per client refuses
 * an origin it was not told of: oidc-provider at its defaults ("origin … not allowed for client"),
 * Keycloak outside its "Web origins", Microsoft Entra ID for any registration but a single-page
 * application's (whose refresh tokens last 24 hours). Without the header the request is what it
 * is, a public client's with PKCE, and none of them checks it. The extension needs no CORS for
 * these requests (the server's origin is a host permission), so the header serves nothing here.
 *
 * One session rule per endpoint (declarativeNetRequest, with host access only: no warning at
 * install) removes the header, for requests this extension itself sends from its background
 * (`initiatorDomains`: its own host; `tabIds`: none) to exactly that address. Session rules last
 * until the browser closes, so the rules are written again once per worker, before its first
 * sign-in request. Where they cannot be (an older browser), the request goes as the browser sends it.
 */

const RULE_IDS = { token: 4901, revocation: 4902 } as const;

type Rules = {
  updateSessionRules(options: { removeRuleIds: number[]; addRules: unknown[] }): Promise<void>;
};

let written: Promise<void> | null = null;

function rule(id: number, endpoint: string, extensionHost: string) {
  return {
    id,
    priority: 1,
    condition: {
      urlFilter: `|${endpoint}|`,
      initiatorDomains: [extensionHost],
      tabIds: [-1],
      requestMethods: ['post'],
      resourceTypes: ['xmlhttprequest'],
    },
    action: { type: 'modifyHeaders', requestHeaders: [{ header: 'origin', operation: 'remove' }] },
  };
}

async function writeRules(): Promise<void> {
  const rules = (browser as unknown as { declarativeNetRequest?: Partial<Rules> }).declarativeNetRequest;
  if (typeof rules?.updateSessionRules !== 'function') return;
  const host = new URL(browser.runtime.getURL('/')).hostname;
  const { tokenEndpoint, revocationEndpoint } = settings.oauth;
  await rules.updateSessionRules({
    removeRuleIds: Object.values(RULE_IDS),
    addRules: [
      rule(RULE_IDS.token, tokenEndpoint, host),
      ...(revocationEndpoint ? [rule(RULE_IDS.revocation, revocationEndpoint, host)] : []),
    ],
  });
}

/** Resolves once this worker wrote the rules (or could not: then it tries again next time). */
export function originRemoved(): Promise<void> {
  written ??= writeRules().catch(() => {
    written = null;
  });
  return written;
}

/** `send`, called once the rules are in place: for every request to the token and revocation endpoints. */
export function withoutOrigin<A extends unknown[]>(
  send: (...args: A) => Promise<Response>,
): (...args: A) => Promise<Response> {
  return async (...args) => {
    await originRemoved();
    return send(...args);
  };
}
