import { appError } from '../../utils/errors';
import { t } from '../../utils/i18n';
import { profileItem, type ProfileData } from '../../utils/storage-items';
import { validateValues } from '../../utils/variable-values';
import type { StoredValues } from '../../utils/types';
import { shownName } from '../../utils/api/client';
import { currentApi } from './api';
import { isCurrent, markWritten } from './generation';
import { ambiguous, fail, toAppError } from './result';
import { refreshProfile } from './sync';

/** Sends the changed values in one update, then re-reads the profile so the cache is the server's truth. */
export async function saveValues(values: StoredValues): Promise<ProfileData> {
  const { api, gen } = await currentApi();
  // A page's input is not trusted: the same rules the options page applies, checked again here.
  const definitions = await knownDefinitions();
  if (Object.keys(values).length === 0) fail(appError('invalid_input', t('errNoChanges')));
  const [problem] = Object.entries(validateValues(definitions, values));
  if (problem) fail(appError('invalid_input', problem[1], { field: problem[0] }));
  try {
    await api.updateValues(values);
  } catch (err) {
    rereadAfterUnclearWrite(err);
    throw err;
  } finally {
    // Even a lost answer may have changed the values: no read from before this may be kept.
    markWritten('profile');
  }
  await patchCache(gen, (cached) => ({ ...cached, ...values }));
  return refreshProfile(true);
}

export async function deleteValue(name: string): Promise<ProfileData> {
  const { api, gen } = await currentApi();
  // Only a question the panel lists as writable may be named in the delete path.
  const definitions = await knownDefinitions();
  if (!definitions.some((d) => d.name === name && d.writable)) {
    fail(appError('invalid_input', t('errVariableNotWritable', shownName(name)), { field: name }));
  }
  try {
    await api.deleteValue(name);
  } catch (err) {
    rereadAfterUnclearWrite(err);
    throw err;
  } finally {
    markWritten('profile');
  }
  await patchCache(gen, ({ [name]: _removed, ...rest }) => rest);
  return refreshProfile(true);
}

/**
 * A write whose answer was lost may or may not have been made: the profile is read again, so the
 * page shows what the panel holds (the panelist's edits stay in the draft either way).
 */
function rereadAfterUnclearWrite(err: unknown): void {
  if (ambiguous(toAppError(err))) {
    // After markWritten below has run: this read must not be joined to one from before the write.
    queueMicrotask(() => void refreshProfile(true).catch(() => undefined));
  }
}

/** The cached variable definitions, loaded from the panel when nothing is cached yet. */
async function knownDefinitions() {
  return (await profileItem.getValue())?.data.definitions ?? (await refreshProfile(false)).definitions;
}

/** A written change shows at once, even if the re-read that follows fails; never in another session. */
async function patchCache(gen: number, change: (values: StoredValues) => StoredValues): Promise<void> {
  const cached = await profileItem.getValue();
  if (cached && isCurrent(gen)) await profileItem.setValue({ ...cached, data: { ...cached.data, values: change(cached.data.values) } });
}
