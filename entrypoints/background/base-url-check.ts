import { appError } from '../../utils/errors';
import { fail } from './result';

/** Placeholder until utils/base-url.ts lands. */
export function checkBaseUrl(input: string): string {
  try {
    const url = new URL(input.trim());
    return url.href.replace(/\/+$/, '');
  } catch {
    fail(appError('invalid_input', 'That API base URL is not a valid address.', { field: 'baseUrl' }));
  }
}
