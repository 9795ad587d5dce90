import type { PanelApi } from '../../utils/api/client';
import { renewingApi, usableCredentials } from './tokens';

/**
 * The API for the stored credentials; refuses with `not_connected` when there are none. Signed-in
 * credentials are renewed first when expired, and again once on a 401 (tokens.ts).
 */
export async function currentApi(): Promise<PanelApi> {
  return renewingApi(await usableCredentials());
}
