import type { PanelApi } from '../../utils/api/client';
import { AppErrorException, appError } from '../../utils/errors';
import { t } from '../../utils/i18n';
import { sessionItem } from '../../utils/storage-items';
import { currentGeneration, isCurrent } from './generation';
import { renewingApi, usableCredentials } from './tokens';

export { httpTuning } from './http-tuning';

/** The API of one session: answers that arrive after the session changed are never used. */
export interface SessionApi {
  api: PanelApi;
  gen: number;
}

/** The work of a session that has ended: dropped without a word written to storage. */
export function staleSession(): AppErrorException {
  return new AppErrorException(appError('not_connected', t('errSessionChanged')));
}

/**
 * The API for the stored credentials, bound to the session current when called; refuses with
 * `not_connected` when there are none. Signed-in credentials are renewed first when expired, and
 * again once on a 401 (tokens.ts). The generation is taken before the credentials are read, so a
 * connect landing in between cannot pair the old generation with the new token.
 */
export async function currentApi(): Promise<SessionApi> {
  const gen = currentGeneration();
  const credentials = await usableCredentials();
  if (!isCurrent(gen)) throw staleSession();
  return { api: rejectingOn401(renewingApi(credentials), gen), gen };
}

/**
 * A 401 on any call, a redeem included, means the panel no longer takes the token: the session
 * is marked so the pages ask to reconnect. Only the session the call belonged to: a late 401 of
 * an old session says nothing about the new one.
 */
function rejectingOn401(api: PanelApi, gen: number): PanelApi {
  const wrapped = {} as Record<string, unknown>;
  for (const [name, method] of Object.entries(api) as Array<[string, (...args: unknown[]) => Promise<unknown>]>) {
    wrapped[name] = async (...args: unknown[]) => {
      try {
        return await method(...args);
      } catch (err) {
        if (err instanceof AppErrorException && err.error.kind === 'unauthorized') await markRejected(gen);
        throw err;
      }
    };
  }
  return wrapped as unknown as PanelApi;
}

async function markRejected(gen: number): Promise<void> {
  const session = await sessionItem.getValue();
  if (isCurrent(gen) && session.connected && !session.rejected) await sessionItem.setValue({ ...session, rejected: true });
}
