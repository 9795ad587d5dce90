import { createPanelApi } from '../../../utils/api/client';
import { appError } from '../../../utils/errors';
import { t } from '../../../utils/i18n';
import {
  DISCONNECTED,
  accountOf,
  draftDiscardedItem,
  goalItem,
  historyItem,
  popupViewItem,
  profileDraftItem,
  questionsItem,
  SAME_ACCOUNT_ITEMS,
  type QuestionsRecord,
  sessionItem,
  type SessionInfo,
} from '../../../utils/storage-items';
import { checkBaseUrl } from '../../../utils/base-url';
import type { Disconnected } from '../../../utils/messages';
import { httpTuning } from '../auth/http-tuning';
import { credentialsItem, type Credentials } from '../store/credentials';
import { fail } from '../result';
import { settleHostAccess, usingHostAccess } from './host-access';
import { revokeRefreshToken } from '../auth/revoke';
import { sameAccount } from './account-identity';
import { CONFIRM_ITEMS } from '../redemption/carry-over';
import { readEvidence } from './same-account';
import { clearShown } from '../notify/notify-tell';
import { freshSignInItem } from './fresh-sign-in';
import { activeCredentials, put, StaleSession, switchSession, update, type Put } from '../store/store';
import { refreshHistory, refreshProfile, refreshRewards } from '../sync/sync';

export async function getSession(): Promise<SessionInfo> {
  return sessionItem.getValue();
}

/** A pasted token: checked, then stored as the session. */
export async function connect(baseUrlInput: string, tokenInput: string): Promise<SessionInfo> {
  const checked = checkBaseUrl(baseUrlInput);
  if (!checked.ok) fail(appError('invalid_input', checked.message, { field: 'baseUrl' }));
  const { baseUrl, origin } = checked;
  const token = tokenInput.trim();
  if (!token) fail(appError('invalid_input', t('errTokenEmpty'), { field: 'token' }));
  if (/\s/.test(token)) fail(appError('invalid_input', t('errTokenSpaces'), { field: 'token' }));

  return usingHostAccess(origin, () => storeCheckedSession({ baseUrl, token }, origin));
}

/**
 * Checks credentials with a real call and only then starts a new session with them; shared by
 * connect() and sign-in (sign-in.ts), which adds the refresh token and `signedIn`. The new
 * credentials, the new session's id and the old session's data emptied are one
 * `storage.local.set` (store.ts): whatever the old session still has in flight is refused when it
 * lands.
 *
 * The check is the panelist's own stored values (`GET /v1/panel/variables/data`), a read whose size
 * does not grow with the catalogue: the session is in place, and "Connected" said, as soon as the
 * panel accepts the key. Only the status and JSON-ness of its answer count: the interface does not
 * show the answer's shape, and a shape this extension cannot read is the profile's error to tell
 * (where it is used), not a reason to refuse a key the panel took. The catalogue, the profile and the history are read after it, under the
 * new session, and fill the pages as each lands (its sync state says it is loading meanwhile):
 * checked with the catalogue itself, a key took as long as 5,000 rewards took to arrive, be
 * checked and stored (35 s seen).
 */
export async function storeCheckedSession(
  credentials: Omit<Credentials, 'session'>,
  origin: string,
  extra: Partial<SessionInfo> = {},
  /** Written in the same switch (a sign-in taking Disconnect's mark: fresh-sign-in.ts). */
  // Stryker disable next-line ArrayDeclaration: a put made of a string names no item: the switch's one set writes no value for it
  also: Put[] = [],
): Promise<SessionInfo> {
  const { baseUrl, token } = credentials;
  // Not bound to any session: a refusal here says nothing about the session in place.
  const api = createPanelApi({ baseUrl, token, ...httpTuning });
  await api.checkAccess();
  const info: Omit<SessionInfo, 'id'> = {
    connected: true,
    baseUrl,
    origin,
    tokenHint: token.slice(-4),
    rejected: false,
    ...extra,
  };
  // Stryker disable next-line ObjectLiteral: the switch's plan fills the box before anything reads it
  const replaced: { credentials: Credentials | null } = { credentials: null };
  // Read before the switch, judged inside it against what is stored then (account-identity.ts); the
  // stored history's head and credentials side by side, each a round trip on "Connected"'s path.
  const head = historyItem.readHead();
  const evidence = await readEvidence(api, await credentialsItem.getValue(), credentials, head);
  const session = await switchSession(
    [credentialsItem, profileDraftItem, goalItem, historyItem, questionsItem],
    (get) => {
      replaced.credentials = get(credentialsItem);
      // One answer for every piece of the account's data: its Confirms still being settled, its
      // draft, goal, balance history, notifications and new questions go over together, or none.
      const same = sameAccount(replaced.credentials, credentials, get(historyItem)?.data ?? null, evidence);
      // Unsaved profile edits typed for another account go, with a notice for the options page.
      const discarded = same ? 0 : Object.keys(get(profileDraftItem)).length;
      // Reconnecting the same account (a new token after a 401) keeps its goal under the new session.
      const goal = same ? get(goalItem) : null;
      return {
        next: { credentials, session: info },
        keep: same ? [...SAME_ACCOUNT_ITEMS, ...CONFIRM_ITEMS] : [],
        puts: [
          // Nothing read yet: the catalogue's read fills it (and the goal's part with it).
          put(popupViewItem, { rewards: null, latest: null, profile: null, goal: null }),
          ...(discarded > 0 ? [put(draftDiscardedItem, { count: discarded, at: Date.now() })] : []),
          ...(goal ? [put(goalItem, { ...goal, account: accountOf(info) })] : []),
          ...retagged(same ? get(questionsItem) : null, accountOf(info)),
          ...also,
        ],
      };
    },
  );
  // What the last session put on screen is not this one's to show.
  void clearShown();
  // A sign-in this one replaces is ended at the panel too, not only forgotten here.
  if (replaced.credentials?.refreshToken !== credentials.refreshToken) void revokeRefreshToken(replaced.credentials);
  // The session's first reads, which the panelist does not wait for: each area's sync state says it
  // is loading, and its failure stays there for the pages to show.
  void refreshRewards(true).catch(() => undefined);
  // Stryker disable next-line BooleanLiteral: the switch emptied the profile's copy (a same-account one keeps none), so an unforced read reads too
  void refreshProfile(true).catch(() => undefined);
  void refreshHistory(true).catch(() => undefined);
  return session;
}

/**
 * Before a sign-in opens its window: the refresh token of a session the panel refused (an API 401
 * the renewal did not mend keeps it) is ended at the panel now, and then forgotten, not once the
 * new sign-in is stored. A server that revokes the whole grant with it (oidc-provider's default
 * `revokeGrantPolicy`) reuses that grant for a sign-in in the same browser session, so a
 * revocation after would end the new sign-in too. One the panel could not be told of stays stored,
 * for storeCheckedSession to try again once replaced; a session not refused keeps its token, as
 * the sign-in may yet be abandoned. Never throws on the panel's account.
 */
export async function endRefusedRefreshToken(): Promise<void> {
  const stored = await activeCredentials();
  if (!stored?.refreshToken || !(await sessionItem.getValue()).rejected) return;
  if ((await revokeRefreshToken(stored)) !== 'revoked') return;
  try {
    await update(stored.session, [credentialsItem], (get) => {
      const now = get(credentialsItem);
      if (!now || now.refreshToken !== stored.refreshToken) return [];
      const { refreshToken: _ended, expiresAt: _expiry, ...rest } = now;
      return [put(credentialsItem, rest)];
    });
  } catch (error) {
    // The session ended meanwhile, and its token with it.
    if (!(error instanceof StaleSession)) throw error;
  }
}

/** The same account's new questions, under its new session's account tag (written over the kept copy). */
function retagged(questions: QuestionsRecord | null, account: string): Put[] {
  return questions ? [put(questionsItem, { ...questions, account })] : [];
}

/**
 * Removes the token and everything of the session in one write (a late answer of it is refused),
 * marking the next sign-in as one that asks for the password again (fresh-sign-in.ts); gives back
 * the panel's host access, then ends a sign-in's refresh token at the panel (revoke.ts); says when
 * the panel could not be told.
 */
export async function disconnect(): Promise<Disconnected> {
  // Stryker disable next-line ObjectLiteral: the switch's plan fills the box before anything reads it
  const ended: { credentials: Credentials | null } = { credentials: null };
  await switchSession([credentialsItem], (get) => {
    ended.credentials = get(credentialsItem);
    return { next: null, puts: [put(freshSignInItem, true)] };
  });
  await clearShown();
  await settleHostAccess();
  return (await revokeRefreshToken(ended.credentials)) === 'failed'
    ? { ...DISCONNECTED, revocationFailed: true }
    : DISCONNECTED;
}
