import { sessionItem } from '../../../utils/storage-items';
import { writeAndNotify } from '../notify/notify-tell';
import type { Put, SessionId } from '../store/store';

/**
 * The panel no longer takes the session's token (a 401), or its sign-in can no longer be renewed
 * (`invalid_grant`): the session is marked so every page asks to reconnect or sign in again at
 * once, and the panelist is told once. Only session `sid`: a late refusal of an ended session says
 * nothing about the one in place. `puts` go in the same write (the refused refresh token forgotten).
 */
export function markRejected(sid: SessionId, ...puts: Put[]): Promise<void> {
  return writeAndNotify(sid, [sessionItem], (get) => {
    const session = get(sessionItem);
    if (!session.connected) return null;
    const marked = session.rejected ? [] : [{ key: sessionItem.key, value: { ...session, rejected: true } }];
    if (marked.length === 0 && puts.length === 0) return null;
    const how = session.signedIn ? { signedIn: true as const } : {};
    // One refusal a session: the same key connected again is a new session, whose refusal is news
    // (an id of the account would be told once for ever, the told list being kept with the account).
    return { puts: [...puts, ...marked], events: [{ id: `rejected:${sid}`, kind: 'rejected', ...how }] };
  });
}
