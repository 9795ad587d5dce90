import { createPanelApi, type PanelApi } from '../../utils/api/client';
import { appError } from '../../utils/errors';
import { t } from '../../utils/i18n';
import { credentialsItem } from './credentials';
import { fail } from './result';

/** The API for the stored credentials; refuses with `not_connected` when there are none. */
export async function currentApi(): Promise<PanelApi> {
  const credentials = await credentialsItem.getValue();
  if (!credentials) fail(appError('not_connected', t('errNotConnected')));
  return createPanelApi(credentials);
}
