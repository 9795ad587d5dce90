import { appError } from '../../../utils/errors';
import { t } from '../../../utils/i18n';
import { popupViewItem, profileItem, type ProfileData } from '../../../utils/storage-items';
import { validateValues } from '../../../utils/variable-values';
import type { StoredValues } from '../../../utils/types';
import { shownName } from '../../../utils/api/client';
import { currentApi } from '../auth/api';
import { markWritten } from '../sync/epochs';
import { profilePart, viewPut } from '../popup-view';
import { put, StaleSession, update, type SessionId } from '../store/store';
import { ambiguous, fail, toAppError } from '../result';
import { refreshProfile } from '../sync/sync';

/**
 * The session a page's save or removal was made under must be the active one: answers typed for
 * one account are never written into the profile of the account connected since (the same rule as
 * the draft's, draft.ts). Refused with the reason, so the page keeps the answers and says so.
 */
async function apiOf(session: SessionId) {
  const current = await currentApi();
  if (current.sid !== session) fail(appError('invalid_input', t('errSaveAccountChanged')));
  return current;
}

/** Sends the changed values in one update, then re-reads the profile so the cache is the server's truth. */
export async function saveValues(session: SessionId, values: StoredValues): Promise<ProfileData | null> {
  const { api, sid } = await apiOf(session);
  // A page's input is not trusted: the same rules the options page applies, checked again here.
  const definitions = await knownDefinitions();
  if (Object.keys(values).length === 0) fail(appError('invalid_input', t('errNoChanges')));
  const [problem] = Object.entries(validateValues(definitions, values));
  if (problem) fail(appError('invalid_input', problem[1], { field: problem[0] }));
  await written(() => api.updateValues(values));
  await patchCache(sid, Object.keys(values), (cached) => ({ ...cached, ...values }));
  return reread();
}

export async function deleteValue(session: SessionId, name: string): Promise<ProfileData | null> {
  const { api, sid } = await apiOf(session);
  // Only a question the panel lists as writable may be named in the delete path.
  const definitions = await knownDefinitions();
  if (!definitions.some((d) => d.name === name && d.writable)) {
    fail(appError('invalid_input', t('errVariableNotWritable', shownName(name)), { field: name }));
  }
  await written(() => api.deleteValue(name));
  await patchCache(sid, [name], ({ [name]: _removed, ...rest }) => rest);
  return reread();
}

/**
 * The read after a write the panel confirmed: it only shows what the panel now holds. Its failure
 * (said in the profile's sync state) does not unsay the save: the panelist is told it worked and
 * the edit leaves the draft, so it can never later overwrite a newer value.
 */
async function reread(): Promise<ProfileData | null> {
  try {
    return await refreshProfile(true);
  } catch (err) {
    if (err instanceof StaleSession) throw err;
    return (await profileItem.getValue())?.data ?? null;
  }
}

/**
 * Sends one profile write. Whatever its answer, no read from before it may be kept (even a lost
 * answer may have changed the values); and a write whose answer was lost may or may not have been
 * made, so the profile is read again to show what the panel holds (the edits stay in the draft).
 */
async function written(send: () => Promise<void>): Promise<void> {
  try {
    await send();
  } catch (err) {
    markWritten('profile');
    if (ambiguous(toAppError(err))) void refreshProfile(true).catch(() => undefined);
    throw err;
  }
  markWritten('profile');
}

/** The cached variable definitions, loaded from the panel when nothing is cached yet. */
async function knownDefinitions() {
  return (await profileItem.getValue())?.data.definitions ?? (await refreshProfile(false)).definitions;
}

/**
 * A written change shows at once, even if the re-read that follows fails; never in another session.
 * The `names` written hold what was sent now, so none is an answer left unread any more.
 */
async function patchCache(
  sid: SessionId,
  names: readonly string[],
  change: (values: StoredValues) => StoredValues,
): Promise<void> {
  await update(sid, [profileItem, popupViewItem], (get) => {
    const cached = get(profileItem);
    if (!cached) return [];
    const { unreadable: before = [], ...data } = cached.data;
    const unreadable = before.filter((name) => !names.includes(name));
    const held = unreadable.length > 0 ? { unreadable } : {};
    const patched = { ...cached, data: { ...data, ...held, values: change(cached.data.values) } };
    // The popup's count of open questions changes with the answer.
    return [put(profileItem, patched), viewPut(get, { profile: profilePart(patched) })];
  });
}
