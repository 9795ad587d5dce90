import { LONGEST_RETRY_AFTER_SECONDS } from '../../../utils/api/http';
import type { PanelApi } from '../../../utils/api/client';
import { AppErrorException, appError } from '../../../utils/errors';
import { t } from '../../../utils/i18n';
import { sentences } from '../../../utils/sentences';
import { panelWaitItem } from '../../../utils/storage-items';
import { put, StaleSession, update, type SessionId } from '../store/store';

/**
 * Whether a call's 429 sets the wait and the wait holds it back: every read and write, but not the
 * redeem. Its 429 speaks for one copy (a panel may throttle a re-sent copy while the first commits),
 * and the checks that settle it must not wait on that; its own reads before it leaves (the
 * baseline, the price) are held, and stop it with nothing sent.
 */
const heldByWait = (name: keyof PanelApi): boolean => name !== 'redeem';

/**
 * A stored wait as it stands at `now`: null when there is none, or when it is further off than any
 * a panel can set, which says the clock was put back since it was stored. Such a wait is not
 * honoured nor kept (the panel, if still busy, says so again), so a clock put back cannot stretch it.
 */
function standing(until: number | null, now: number): number | null {
  return until !== null && until - now <= LONGEST_RETRY_AFTER_SECONDS * 1000 ? until : null;
}

/** Whole seconds left of the active session's wait, or 0 when it may ask now. */
async function secondsLeft(now: number): Promise<number> {
  const until = standing(await panelWaitItem.getValue(), now);
  return until === null ? 0 : Math.max(0, Math.ceil((until - now) / 1000));
}

/** Stores the session's wait until `until`, keeping a later one that stands; nothing for a session that has ended. */
async function waitUntil(sid: SessionId, until: number): Promise<void> {
  try {
    await update(sid, [panelWaitItem], (get) => [
      put(panelWaitItem, Math.max(until, standing(get(panelWaitItem), Date.now()) ?? 0)),
    ]);
  } catch (err) {
    if (!(err instanceof StaleSession)) throw err;
  }
}

/**
 * The design's "429: wait (`Retry-After` where given)", across requests and worker restarts: after
 * the panel answered 429 with `Retry-After`, no read or write of that session leaves before the
 * time it named (an hour at most: `parseRetryAfter`, utils/api/http.ts); each is refused at once,
 * unsent, with the seconds still to wait, which the pages tell the panelist. A read's 429 with a
 * short `Retry-After` (up to 5 s) is retried once by the HTTP client itself and sets a wait only when
 * the retry is refused too; a write, never retried, sets it at any. A 429 without `Retry-After` sets
 * none (a read has already waited once, and the next refresh is the panelist's or the alarm's).
 */
export function waitingOnPanel(api: PanelApi, sid: SessionId): PanelApi {
  const wrapped = {} as Record<string, unknown>;
  for (const [name, method] of Object.entries(api) as Array<
    [keyof PanelApi, (...args: unknown[]) => Promise<unknown>]
  >) {
    wrapped[name] = async (...args: unknown[]) => {
      if (!heldByWait(name)) return method(...args);
      // The item is the active session's (a switch empties it); a call of an ended session is
      // refused as it leaves anyway (store.ts, depart).
      const left = await secondsLeft(Date.now());
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
        if (seconds && seconds > 0) await waitUntil(sid, Date.now() + seconds * 1000);
        throw err;
      }
    };
  }
  return wrapped as unknown as PanelApi;
}
