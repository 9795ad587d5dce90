/**
 * What the build knows of the operator's sign-in server, from its published metadata (RFC 8414, or
 * OpenID Connect Discovery; read by utils/build/operator/oauth-discovery.ts when `oauth.issuer` is
 * set), and the authorization request that follows from it. Nothing here is guessed: a server that
 * publishes no metadata is asked as a plain OAuth 2.0 server, with the operator's scopes as set.
 */

export interface ServerFacts {
  /** Whether the facts below come from the server's own metadata (false: nothing is known). */
  metadata: boolean;
  /**
   * An OpenID provider: its metadata is an OpenID Connect Discovery document, or lists `openid` in
   * `scopes_supported`. It then gets `openid` in the scope: OpenID Connect Core's offline access,
   * `max_age` and the ID token all belong to an OpenID request.
   */
  openid: boolean;
  /**
   * Refresh tokens are asked for the OpenID way: `offline_access` with `prompt=consent` (Core §11;
   * a provider drops `offline_access` without it, as oidc-provider does). On an OpenID provider
   * unless its `scopes_supported` lists scopes without `offline_access`.
   */
  offlineAccess: boolean;
  /**
   * It takes `prompt=login` (Core §3.1.2.1): its metadata lists `login` in `prompt_values_supported`.
   * Not assumed of an OpenID provider that lists none: Google's lists none and refuses `login`
   * ("Invalid parameter value for prompt"), and `max_age=0` already asks such a provider for the password.
   */
  promptLogin: boolean;
  /**
   * The prompt values its metadata lists (`prompt_values_supported`, in an OpenID Connect Discovery
   * or RFC 8414 document); absent where it lists none. Two values are sent together only where both
   * are listed: Microsoft Entra ID lists none and refuses any two (AADSTS90023).
   */
  prompts?: string[];
  /** It says it puts `iss` on every authorization response (RFC 9207): one without is then refused. */
  issParameter: boolean;
  /**
   * The algorithms it signs ID tokens with (`id_token_signing_alg_values_supported`, which OpenID
   * Connect Discovery requires): an ID token signed with another is refused. Absent: RS256 alone,
   * OpenID Connect's default, which is what oauth4webapi then expects.
   */
  idTokenAlgs?: string[];
}

/** A server whose metadata the build did not read: plain OAuth 2.0, nothing assumed. */
export const NO_METADATA: ServerFacts = {
  metadata: false,
  openid: false,
  offlineAccess: false,
  promptLogin: false,
  issParameter: false,
};

/**
 * The authorization request's `scope`, `prompt` and `max_age`, beside PKCE and `state`.
 * `fresh`: the first sign-in after Disconnect, which must not sign in whoever the server still
 * remembers (a shared computer): on an OpenID provider `max_age=0` (Core says the provider MUST
 * then actively re-authenticate), with `prompt=login` where its metadata lists `login`. A server without metadata gets
 * `prompt=login` all the same, which RFC 6749 §3.1 has it ignore if it does not know it; the
 * extension only says the password will be asked where the metadata says so
 * ({@link asksPasswordAfterDisconnect}).
 * Where `consent` is asked too, `login consent` goes only to a server whose metadata lists both
 * ({@link ServerFacts.prompts}); any other gets `consent` alone, for which nothing can stand in (no
 * refresh token without it: Core §11; oidc-provider, which lists no prompts, drops `offline_access`),
 * while `max_age=0`, sent with it, has the provider ask for the password in `login`'s place.
 */
export function authorizationParams(
  scopes: string,
  server: ServerFacts,
  fresh: boolean,
  /**
   * `consentPrompt: false` (the operator's `oauth.consentPrompt` `omit`): `offline_access` without
   * `prompt=consent`, for a provider that issues refresh tokens without it and where the prompt
   * stops non-admin users (Microsoft Entra ID in a tenant that lets no user consent, AADSTS90094).
   */
  { consentPrompt = true }: { consentPrompt?: boolean } = {},
): Record<string, string> {
  const asked = scopes.split(' ').filter(Boolean);
  const scope = [
    ...(server.openid && !asked.includes('openid') ? ['openid'] : []),
    ...asked,
    ...(server.offlineAccess && !asked.includes('offline_access') ? ['offline_access'] : []),
  ];
  const consent = consentPrompt && server.openid && scope.includes('offline_access');
  const together = ['login', 'consent'].every((value) => server.prompts?.includes(value));
  const login = fresh && (server.promptLogin || !server.metadata) && (!consent || together);
  const prompt = [...(login ? ['login'] : []), ...(consent ? ['consent'] : [])];
  return {
    ...(scope.length ? { scope: scope.join(' ') } : {}),
    ...(prompt.length ? { prompt: prompt.join(' ') } : {}),
    ...(fresh && server.openid ? { max_age: '0' } : {}),
  };
}

/**
 * Whether the sign-in after Disconnect is known to ask for the password again, so the page may say
 * so: an OpenID provider must re-authenticate for `max_age=0` (Core §3.1.2.1), and a server that
 * lists `login` among its prompts says it takes `prompt=login`. Otherwise it is not known.
 */
export function asksPasswordAfterDisconnect(server: ServerFacts | undefined): boolean {
  // Settings made by hand (tests, a build without sign-in) may lack the facts: nothing is known then.
  return !!server && (server.openid || server.promptLogin);
}

/** The operator's `oauth.consentPrompt` as {@link authorizationParams} takes it (none: `send`). */
export function consentPromptOf(oauth: { consentPrompt?: string } | undefined): { consentPrompt: boolean } {
  return { consentPrompt: oauth?.consentPrompt !== 'omit' };
}
