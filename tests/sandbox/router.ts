/** Maps method and path of an authorized API request to its handler. */
import { failure } from './http-util';
import { isOAuthPath, type OAuthServer } from './oauth';
import { listRedemptions, listRewards, redeem } from './routes-rewards';
import { deleteValue, listDefinitions, readValues, writeValues } from './routes-variables';
import type { ApiRequest, ApiResult, SandboxState } from './types';

interface RouteContext {
  state: SandboxState;
  req: ApiRequest;
  now: Date;
}

interface Route {
  method: string;
  /** A literal path, or a pattern whose first group is a path parameter. */
  path: string | RegExp;
  handle: (context: RouteContext, param: string) => ApiResult;
}

const ROUTES: Route[] = [
  { method: 'GET', path: '/v1/panel/variables/meta', handle: ({ state }) => listDefinitions(state) },
  { method: 'GET', path: '/v1/panel/variables/data', handle: ({ state, req }) => readValues(state, req) },
  { method: 'POST', path: '/v1/panel/variables/data', handle: ({ state, req }) => writeValues(state, req) },
  {
    method: 'DELETE',
    path: /^\/v1\/panel\/variables\/data\/([^/]+)$/,
    handle: ({ state }, name) => deleteValue(state, name),
  },
  { method: 'GET', path: '/v1/panel/redemptions', handle: ({ state }) => listRedemptions(state) },
  { method: 'GET', path: '/v1/panel/rewards', handle: ({ state }) => listRewards(state) },
  { method: 'GET', path: '/v1/panel/redemption', handle: ({ state, req, now }) => redeem(state, req, now) },
];

/** Answered before the bearer-token check: the OAuth endpoints are how a token is obtained. */
export function dispatchOpen(oauth: OAuthServer, req: ApiRequest): ApiResult | null {
  return isOAuthPath(req.path) ? oauth.handle(req) : null;
}

/** The decoded path parameter, '' for a literal match, or null when the route does not match. */
function matchPath(route: Route, path: string): string | null {
  if (typeof route.path === 'string') return route.path === path ? '' : null;
  const match = route.path.exec(path);
  return match ? (match[1] ?? '') : null;
}

export function dispatch(state: SandboxState, req: ApiRequest, now: Date): ApiResult {
  const matches: { route: Route; param: string }[] = [];
  for (const route of ROUTES) {
    const param = matchPath(route, req.path);
    if (param !== null) matches.push({ route, param });
  }
  if (matches.length === 0) return failure(404, `Not found: ${req.method} ${req.path}`);

  const hit = matches.find(({ route }) => route.method === req.method);
  if (!hit) {
    const allow = matches.map(({ route }) => route.method).join(', ');
    return failure(405, `Method ${req.method} is not allowed on ${req.path}`, {}, { Allow: allow });
  }

  let param: string;
  try {
    param = decodeURIComponent(hit.param);
  } catch {
    return failure(400, `Malformed path segment: ${hit.param}`);
  }
  return hit.route.handle({ state, req, now }, param);
}
