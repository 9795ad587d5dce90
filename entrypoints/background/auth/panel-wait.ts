import type { PanelApi } from '../../../utils/api/client';
import { AppErrorException, appError } from '../../../utils/errors';
import { t } from '../../../utils/i18n';
import { sentences } from '../../../utils/sentences';
import type { SessionId } from '../store/store';

/**
 * When each session's panel said it may be asked again (epoch ms), from its last 429 with
 * `Retry-After`. Per session: a late 429 of an old session says nothing to the next. In the
 * worker's memory: a worker started again asks once, and is told again.
 */
const waits = new Map<SessionId, number>();

/**
 * The calls whose 429 sets the wait and that it holds back. A redeem is neither: its 429 speaks
 * for one copy (a panel may throttle a re-sent copy while the first commits), and the checks that
 * settle it must not wait on that; its own reads before it leaves (the baseline, the price) are
 * held, and stop it with nothing sent.
 */
const WAITING: ReadonlySet<keyof PanelApi> = new Set<keyof PanelApi>([
  'listVariables',
  'readValues',
  'updateValues',
  'deleteValue',
  'listRedemptions',
  'listRewards',
  'revalidate',
]);

/** Whole seconds left of the session's wait, or 0 when it may ask now. */
function secondsLeft(sid: SessionId, now: number): number {
  const until = waits.get(sid);
  if (until === undefined) return 0;
  if (until <= now) waits.delete(sid);
  return Math.max(0, Math.ceil((until - now) / 1000));
}

/**
 * Design §5, "429: wait (`Retry-After` where given)", across requests: after a panel answered 429
 * with `Retry-After`, no read or write of that session leaves before the time it named (an hour
 * at most: `parseRetryAfter`, utils/api/http.ts); each is
 * refused at once, unsent, with the seconds still to wait (what the pages tell the panelist). The
 * HTTP client's own retry of one read after a short `Retry-After` (utils/api/http.ts) comes first:
 * only a 429 it gives up on sets the wait. A 429 without `Retry-After` sets none (the client has
 * already waited once, and the next refresh is the panelist's or the alarm's).
 */
export function waitingOnPanel(api: PanelApi, sid: SessionId): PanelApi {
  const wrapped = {} as Record<string, unknown>;
  for (const [name, method] of Object.entries(api) as Array<
    [keyof PanelApi, (...args: unknown[]) => Promise<unknown>]
  >) {
    wrapped[name] = async (...args: unknown[]) => {
      if (!WAITING.has(name)) return method(...args);
      const left = secondsLeft(sid, Date.now());
      if (left > 0)
        throw new AppErrorException(
          appError('rate_limited', sentences(t('httpTooManyRequests'), t('httpRetryInSeconds', left)), {
            retryAfterSeconds: left,
          }),
        );
      try {
        return await method(...args);
      } catch (err) {
        // The sign-in server's own 429 at renewal keeps its own wait (tokens.ts): it is not the panel's.
        const seconds =
          err instanceof AppErrorException &&
          err.error.kind === 'rate_limited' &&
          err.error.endpoint !== 'token' &&
          err.error.retryAfterSeconds;
        if (seconds && seconds > 0) {
          const until = Date.now() + seconds * 1000;
          waits.set(sid, Math.max(until, waits.get(sid) ?? 0));
        }
        throw err;
      }
    };
  }
  return wrapped as unknown as PanelApi;
}
