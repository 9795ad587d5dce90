import { defineItem } from '../../../utils/storage-item';

/**
 * The access token and the base URL it belongs to. Only background modules import this file, so
 * no page's code ever reads the token (tests/unit/token-secrecy.test.ts checks the page bundles).
 */
export interface Credentials {
  /** The session they belong to (SessionInfo.id): written together, in one `storage.local.set`. */
  session: string;
  baseUrl: string;
  token: string;
  /** From sign-in (tokens.ts), where the server gave one: a secret like the token. */
  refreshToken?: string;
  /** Epoch ms when the access token expires, from the token answer's `expires_in`. */
  expiresAt?: number;
}

export const credentialsItem = defineItem<Credentials | null>('credentials', null);
