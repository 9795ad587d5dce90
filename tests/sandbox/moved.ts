/**
 * The `movedTo` switch (a panel whose API has moved): every API request is answered with a 301
 * to the same path and query under the new base. With a path prefix (`/api`) the sandbox serves
 * the API there too, so following the redirect works; with another origin, what answers there is
 * that origin's (another sandbox in the tests). The OAuth pages never move.
 */
import { json } from './http-util';
import { isOAuthPath } from './oauth';
import type { ApiRequest, ApiResult, SandboxState } from './types';

export type Routed = { answer: ApiResult } | { request: ApiRequest };

export function routeMoved(state: SandboxState, request: ApiRequest): Routed {
  const to = state.movedTo;
  if (!to || isOAuthPath(request.path)) return { request };
  if (to.startsWith('/') && request.path.startsWith(`${to}/`))
    return { request: { ...request, path: request.path.slice(to.length) } };
  const query = request.query.toString();
  const location = `${to.replace(/\/+$/, '')}${request.path}${query ? `?${query}` : ''}`;
  return { answer: json(301, { message: 'Moved Permanently' }, { Location: location }) };
}
