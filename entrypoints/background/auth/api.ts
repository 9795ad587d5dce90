import type { PanelApi } from '../../../utils/api/client';
import { AppErrorException } from '../../../utils/errors';
import type { Credentials } from '../store/credentials';
import { markRejected } from './rejected';
import { waitingOnPanel } from './panel-wait';
import { activeCredentials, type SessionId } from '../store/store';
import { renewingApi, usableCredentials } from './tokens';

export { httpTuning } from './http-tuning';
export { staleSession } from '../store/store';

/** The API of one session: its requests leave, and its answers are stored, only while it is active. */
export interface SessionApi {
  api: PanelApi;
  sid: SessionId;
}

/**
 * The API for the stored credentials, bound to the session they belong to (read with them, in one
 * item); refuses with `not_connected` when there are none. Signed-in credentials are renewed first
 * when expired, and again once on a 401 (tokens.ts); while the panel asks to wait (a 429 with
 * `Retry-After`), reads and writes are refused unsent (panel-wait.ts). Each request is checked as
 * it leaves, not here: an API made before a switch sends nothing after it.
 */
export async function currentApi(): Promise<SessionApi> {
  return sessionApi(await activeCredentials());
}

/** As {@link currentApi}, for credentials already read (null: not connected). */
export async function sessionApi(stored: Credentials | null): Promise<SessionApi> {
  const credentials = await usableCredentials(stored);
  const sid = credentials.session;
  return { api: waitingOnPanel(rejectingOn401(renewingApi(credentials), sid), sid), sid };
}

/**
 * A 401 on any call, a redeem included, means the panel no longer takes the token: the session
 * is marked so the pages ask to reconnect. Only the session the call belonged to: a late 401 of
 * an old session says nothing about the new one.
 */
function rejectingOn401(api: PanelApi, sid: SessionId): PanelApi {
  const wrapped = {} as Record<string, unknown>;
  for (const [name, method] of Object.entries(api) as Array<[string, (...args: unknown[]) => Promise<unknown>]>) {
    wrapped[name] = async (...args: unknown[]) => {
      try {
        return await method(...args);
      } catch (err) {
        if (err instanceof AppErrorException && err.error.kind === 'unauthorized')
          await markRejected(sid).catch(() => undefined);
        throw err;
      }
    };
  }
  return wrapped as unknown as PanelApi;
}
