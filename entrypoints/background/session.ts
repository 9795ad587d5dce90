import { createPanelApi } from '../../utils/api/client';
import { appError } from '../../utils/errors';
import { t } from '../../utils/i18n';
import { DISCONNECTED, PANELIST_DATA_ITEMS, profileDraftItem, rewardsItem, sessionItem, type SessionInfo } from '../../utils/storage-items';
import { credentialsItem, type Credentials } from './credentials';
import { fail } from './result';
import { loadRewards, refreshHistory, refreshProfile } from './sync';
import { checkBaseUrl } from '../../utils/base-url';

export async function getSession(): Promise<SessionInfo> {
  return sessionItem.getValue();
}

/**
 * Checks the token with a real call (the rewards list, which the popup needs next anyway, so it
 * is cached) and only then stores it. A different account's cached data is dropped first.
 */
export async function connect(baseUrlInput: string, tokenInput: string): Promise<SessionInfo> {
  const checked = checkBaseUrl(baseUrlInput);
  if (!checked.ok) fail(appError('invalid_input', checked.message, { field: 'baseUrl' }));
  const { baseUrl, origin } = checked;
  const token = tokenInput.trim();
  if (!token) fail(appError('invalid_input', t('errTokenEmpty'), { field: 'token' }));
  if (/\s/.test(token)) fail(appError('invalid_input', t('errTokenSpaces'), { field: 'token' }));

  return storeCheckedSession({ baseUrl, token }, origin);
}

/**
 * Checks credentials with a real call and only then stores them with the session; shared by
 * connect() and sign-in (sign-in.ts), which adds the refresh token and `signedIn`.
 */
export async function storeCheckedSession(credentials: Credentials, origin: string, extra: Partial<SessionInfo> = {}): Promise<SessionInfo> {
  const { baseUrl, token } = credentials;
  const api = createPanelApi({ baseUrl, token });
  const rewards = await loadRewards(api);

  // Reconnecting to the same panel (say, after a token was rejected) keeps unsaved profile edits.
  const previous = await sessionItem.getValue();
  await clearPanelistData({ keepDraft: previous.origin === origin });
  await credentialsItem.setValue(credentials);
  const session: SessionInfo = {
    connected: true,
    baseUrl,
    origin,
    tokenHint: token.slice(-4),
    rejected: false,
    ...extra,
  };
  await sessionItem.setValue(session);
  await rewardsItem.setValue({ data: rewards, fetchedAt: Date.now() });
  // Warm the other caches without making the panelist wait for them.
  void refreshProfile(true).catch(() => undefined);
  void refreshHistory(true).catch(() => undefined);
  return session;
}

export async function disconnect(): Promise<SessionInfo> {
  await credentialsItem.removeValue();
  await clearPanelistData();
  await sessionItem.setValue(DISCONNECTED);
  return DISCONNECTED;
}

async function clearPanelistData({ keepDraft = false } = {}): Promise<void> {
  const items = PANELIST_DATA_ITEMS.filter((item) => !(keepDraft && item === profileDraftItem));
  await Promise.all(items.map((item) => item.removeValue()));
}
