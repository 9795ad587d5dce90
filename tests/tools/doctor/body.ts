/** How an answer's body looks, in a few words for a finding. */
import type { Exchange } from './wire';

/** "JSON with `message`, `errors`", "no body", "a body that is not JSON (text/html)". */
export function bodyShape(exchange: Exchange | undefined): string {
  if (!exchange || exchange.body.trim() === '') return 'no body';
  try {
    const body = JSON.parse(exchange.body) as unknown;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'JSON that is not an object';
    const keys = Object.keys(body);
    return `JSON with ${keys.length ? keys.map((k) => `\`${k}\``).join(', ') : 'no fields'}`;
  } catch {
    return `a body that is not JSON (${exchange.headers?.get('content-type') ?? 'no content type'})`;
  }
}

/** The body itself when it is short (`{}`, `{"message":"success"}`), else its shape. */
export function bodyQuoted(exchange: Exchange | undefined): string {
  const text = exchange?.body.replace(/\s+/g, ' ').trim() ?? '';
  if (text === '') return 'no body';
  return text.length <= 80 ? `\`${text}\`` : bodyShape(exchange);
}
