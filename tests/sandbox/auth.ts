/** The bearer-token check every panel API call passes before reaching its handler. */
import { failure } from './http-util';
import type { ApiResult } from './types';

export const UNAUTHORIZED_MESSAGE = 'Unauthorized: missing or invalid access token';

export function isAuthorized(headers: Record<string, string>, token: string): boolean {
  return bearerToken(headers) === token;
}

export function bearerToken(headers: Record<string, string>): string | null {
  return /^Bearer\s+(\S+)\s*$/i.exec(headers['authorization'] ?? '')?.[1] ?? null;
}

export function unauthorized(): ApiResult {
  return failure(401, UNAUTHORIZED_MESSAGE, {}, { 'WWW-Authenticate': 'Bearer' });
}
