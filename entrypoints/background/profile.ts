import { profileItem, type ProfileData } from '../../utils/storage-items';
import type { StoredValues } from '../../utils/types';
import { currentApi } from './api';
import { refreshProfile } from './sync';

/** Sends the changed values in one update, then re-reads the profile so the cache is the server's truth. */
export async function saveValues(values: StoredValues): Promise<ProfileData> {
  const api = await currentApi();
  await api.updateValues(values);
  await mergeIntoCache(values);
  return refreshProfile(true);
}

export async function deleteValue(name: string): Promise<ProfileData> {
  const api = await currentApi();
  await api.deleteValue(name);
  const cached = await profileItem.getValue();
  if (cached) {
    const { [name]: _removed, ...rest } = cached.data.values;
    await profileItem.setValue({ ...cached, data: { ...cached.data, values: rest } });
  }
  return refreshProfile(true);
}

/** Saved values show at once even if the re-read that follows fails. */
async function mergeIntoCache(values: StoredValues): Promise<void> {
  const cached = await profileItem.getValue();
  if (cached) await profileItem.setValue({ ...cached, data: { ...cached.data, values: { ...cached.data.values, ...values } } });
}
