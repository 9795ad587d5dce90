/** The bearer-token check every panel API call passes before reaching its handler. */
import { failure } from './http-util';
import type { ApiResult } from './types';

export const UNAUTHORIZED_MESSAGE = 'Unauthorized: missing or invalid access token';

export function isAuthorized(headers: Record<string, string>, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers['authorization'] ?? '');
  return match?.[1] === token;
}

export function unauthorized(): ApiResult {
  return failure(401, UNAUTHORIZED_MESSAGE, {}, { 'WWW-Authenticate': 'Bearer' });
}
