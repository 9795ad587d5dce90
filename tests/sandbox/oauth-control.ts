/** Test-only controls of the sandbox authorization server, under /__sandbox/oauth. */
import { failure, isJsonObject, success } from './http-util';
import type { OAuthServer } from './oauth';
import type { ApiRequest, ApiResult } from './types';

type Handler = (context: { oauth: OAuthServer }, req: ApiRequest) => ApiResult;

function patchSettings(oauth: OAuthServer, body: ApiRequest['body']): string | null {
  if (!isJsonObject(body)) return 'Body must be a JSON object';
  const { accessTokenTtlSeconds: ttl, redirectUris: uris, iss } = body;
  if (ttl !== undefined && !(typeof ttl === 'number' && Number.isInteger(ttl) && ttl >= 0))
    return 'accessTokenTtlSeconds must be a whole number of seconds';
  if (uris !== undefined && uris !== null && !(Array.isArray(uris) && uris.every((u) => typeof u === 'string')))
    return 'redirectUris must be a list of URLs or null';
  if (iss !== undefined && iss !== null && typeof iss !== 'string')
    return 'iss must be an issuer URL, "" for none, or null for the server\'s own origin';
  if (typeof ttl === 'number') oauth.settings.accessTokenTtlSeconds = ttl;
  if (iss !== undefined) oauth.settings.iss = iss;
  if (uris !== undefined) oauth.settings.redirectUris = uris;
  return null;
}

export const OAUTH_CONTROLS: Record<string, Partial<Record<string, Handler>>> = {
  '/oauth': {
    GET: ({ oauth }) => success({ settings: oauth.settings, ...oauth.counts() }),
    PATCH: ({ oauth }, req) => {
      const error = patchSettings(oauth, req.body);
      return error ? failure(400, error) : success({ settings: oauth.settings });
    },
  },
  '/oauth/expire': { POST: ({ oauth }) => success({ expired: oauth.expireAccessTokens() }) },
  '/oauth/revoke': {
    POST: ({ oauth }) => {
      oauth.revokeAll();
      return success();
    },
  },
};
