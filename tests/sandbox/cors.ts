/** CORS preflight answers. The per-response CORS headers live in http-util's BASE_HEADERS. */
import type { ApiResult } from './types';

const API_METHODS = 'GET, POST, DELETE, OPTIONS';
// The control endpoints also take PATCH (for /__sandbox/state), which a page must be allowed to send.
const CONTROL_METHODS = 'GET, POST, PATCH, DELETE, OPTIONS';

export function preflight(forControl: boolean): ApiResult {
  return {
    status: 204,
    headers: {
      'Access-Control-Allow-Methods': forControl ? CONTROL_METHODS : API_METHODS,
      'Access-Control-Allow-Headers': 'Authorization, Content-Type, Accept, Idempotency-Key',
      'Access-Control-Max-Age': '600',
    },
  };
}
