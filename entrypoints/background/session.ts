import { createPanelApi } from '../../utils/api/client';
import { appError } from '../../utils/errors';
import { t } from '../../utils/i18n';
import {
  DISCONNECTED,
  PANELIST_DATA_ITEMS,
  SAME_ACCOUNT_ITEMS,
  draftDiscardedItem,
  profileDraftItem,
  sessionItem,
  syncItem,
  type SessionInfo,
} from '../../utils/storage-items';
import { checkBaseUrl } from '../../utils/base-url';
import type { Disconnected } from '../../utils/messages';
import { staleSession } from './api';
import { httpTuning } from './http-tuning';
import { credentialsItem, type Credentials } from './credentials';
import { isCurrent, nextGeneration } from './generation';
import { rewardsWriter } from './popup-view';
import { fail } from './result';
import { keepGoalFor } from './goal';
import { settleHostAccess, usingHostAccess } from './host-access';
import { revokeRefreshToken } from './revoke';
import { announceStored, loadRewards, refreshHistory, refreshProfile, resetSync } from './sync';

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
 * Checks credentials with a real call (the rewards list, which the popup needs next anyway, so it
 * is cached) and only then stores them with the session; shared by connect() and sign-in
 * (sign-in.ts), which adds the refresh token and `signedIn`. From then on the session is a new one:
 * whatever the old one still has in flight is dropped when it lands, and another account's cached
 * data goes first.
 */
export async function storeCheckedSession(credentials: Credentials, origin: string, extra: Partial<SessionInfo> = {}): Promise<SessionInfo> {
  const { baseUrl, token } = credentials;
  // Not bound to any session: a refusal here says nothing about the session in place.
  const rewards = await loadRewards(createPanelApi({ baseUrl, token, ...httpTuning }));

  const [previous, previousSession] = await Promise.all([credentialsItem.getValue(), sessionItem.getValue()]);
  const gen = nextGeneration();
  await clearPanelistData({ keepDraft: sameAccount(previous, previousSession, credentials) });
  if (!isCurrent(gen)) throw staleSession();
  await credentialsItem.setValue(credentials);
  // A sign-in this one replaces is ended at the panel too, not only forgotten here.
  void revokeRefreshToken(previous);
  const session: SessionInfo = { connected: true, baseUrl, origin, tokenHint: token.slice(-4), rejected: false, ...extra };
  if (!isCurrent(gen)) throw staleSession();
  await sessionItem.setValue(session);
  if (!isCurrent(gen)) throw staleSession();
  await rewardsWriter.setValue({ data: rewards, fetchedAt: Date.now() });
  await keepGoalFor(gen, session);
  announceStored('rewards', rewards, gen);
  // Warm the other caches without making the panelist wait for them.
  void refreshProfile(true).catch(() => undefined);
  void refreshHistory(true).catch(() => undefined);
  return session;
}

/**
 * The panel API has no "who am I": the same token on the same panel is the same account, and so is
 * a new token (pasted, or from signing in again) for a session the panel had stopped accepting:
 * that is what reconnecting is for.
 */
function sameAccount(previous: Credentials | null, session: SessionInfo, next: Credentials): boolean {
  if (!previous || previous.baseUrl !== next.baseUrl) return false;
  return previous.token === next.token || session.rejected;
}

/**
 * Forgets the credentials and everything of the account, gives back the panel's host access, then
 * ends a sign-in's refresh token at the panel (revoke.ts); says when the panel could not be told.
 */
export async function disconnect(): Promise<Disconnected> {
  nextGeneration();
  const previous = await credentialsItem.getValue();
  await credentialsItem.removeValue();
  await clearPanelistData({ keepDraft: false, announce: false });
  await sessionItem.setValue(DISCONNECTED);
  await settleHostAccess();
  return (await revokeRefreshToken(previous)) === 'failed' ? { ...DISCONNECTED, revocationFailed: true } : DISCONNECTED;
}

/**
 * Everything of the previous account goes. Unsaved profile edits typed for another account go too,
 * with a notice for the options page (on disconnect the panelist chose it, so without one).
 */
async function clearPanelistData({ keepDraft, announce = true }: { keepDraft: boolean; announce?: boolean }): Promise<void> {
  const draft = keepDraft ? {} : await profileDraftItem.getValue();
  const discarded = Object.keys(draft).length;
  const kept: readonly unknown[] = keepDraft ? SAME_ACCOUNT_ITEMS : [];
  const items = PANELIST_DATA_ITEMS.filter((item) => item !== syncItem && !kept.includes(item));
  await Promise.all([...items.map((item) => item.removeValue()), resetSync()]);
  if (announce && discarded > 0) await draftDiscardedItem.setValue({ count: discarded, at: Date.now() });
  else await draftDiscardedItem.removeValue();
}
