/** Test-only endpoints under /__sandbox: reset, state, faults, recorded requests. No auth. */
import type { FaultStore } from './faults';
import { parseFaultRule } from './fault-rule';
import type { Idempotency } from './idempotency';
import type { OAuthServer } from './oauth';
import { OAUTH_CONTROLS } from './oauth-control';
import { failure, isJsonObject, json, success } from './http-util';
import { patchState } from './state-patch';
import type { ApiRequest, ApiResult, RecordedRequest, SandboxState } from './types';

export const CONTROL_PREFIX = '/__sandbox';

export interface ControlContext {
  state: SandboxState;
  faults: FaultStore;
  requests: RecordedRequest[];
  oauth: OAuthServer;
  idempotency: Idempotency;
  reset(): void;
  /** Closes every keep-alive connection not carrying a request: the next request opens a new one. */
  closeIdleConnections(): void;
}

type ControlHandler = (context: ControlContext, req: ApiRequest) => ApiResult;

const HANDLERS: Record<string, Partial<Record<string, ControlHandler>>> = {
  '/reset': {
    POST: (context) => {
      context.reset();
      return success();
    },
  },
  '/state': {
    GET: ({ state }) => json(200, state),
    PATCH: ({ state }, req) => {
      const error = patchState(state, req.body);
      return error ? failure(400, error) : success({ state });
    },
  },
  '/faults': {
    GET: ({ faults }) => success({ faults: faults.list() }),
    POST: ({ faults }, req) => {
      const parsed = parseFaultRule(req.body);
      if ('error' in parsed) return failure(400, parsed.error);
      faults.add(parsed.rule);
      return success({ faults: faults.list() });
    },
    DELETE: ({ faults }) => {
      faults.clear();
      return success();
    },
  },
  // Lets the requests a `held` fault keeps waiting through.
  '/release': {
    POST: ({ faults }) => success({ released: faults.release() }),
  },
  '/requests': {
    GET: ({ requests }) => json(200, { requests }),
    DELETE: ({ requests }) => {
      // Emptied in place: tests may hold `sandbox.requests` by reference.
      requests.length = 0;
      return success();
    },
  },
  '/connections': {
    DELETE: (context) => {
      context.closeIdleConnections();
      return success();
    },
  },
  // Whether the redeem honours `Idempotency-Key` (the default) or ignores it, as a panel may.
  '/idempotency': {
    GET: ({ idempotency }) => success({ honour: idempotency.honour }),
    PATCH: ({ idempotency }, req) => {
      const honour = isJsonObject(req.body) ? req.body.honour : undefined;
      if (typeof honour !== 'boolean') return failure(400, 'Body must be {"honour": true|false}');
      idempotency.honour = honour;
      return success({ honour });
    },
  },
  ...OAUTH_CONTROLS,
};

export function isControlPath(path: string): boolean {
  return path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`);
}

export function handleControl(context: ControlContext, req: ApiRequest): ApiResult {
  const handlers = HANDLERS[req.path.slice(CONTROL_PREFIX.length)];
  if (!handlers) return failure(404, `Not found: ${req.method} ${req.path}`);
  const handle = handlers[req.method];
  if (!handle) {
    const allow = Object.keys(handlers).join(', ');
    return failure(405, `Method ${req.method} is not allowed on ${req.path}`, {}, { Allow: allow });
  }
  if (!req.bodyIsJson) return failure(400, 'Request body is not valid JSON');
  return handle(context, req);
}
