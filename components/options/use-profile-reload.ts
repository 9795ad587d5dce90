import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { t } from '../../utils/i18n';
import { sendMessage } from '../../utils/messages';
import { ask } from './ask';
import { alertOf, type Alert } from './error-text';
import { focusLater } from './focus-later';

/**
 * The profile's reads: one when the section opens (served from the cache when fresh), and one per
 * *Reload profile*, which says what became of it and moves focus to the outcome.
 */
export function useProfileReload() {
  const reloading = useSignal(false);
  const status = useSignal('');
  const alert = useSignal<Alert | null>(null);
  const reloadRef = useRef<HTMLButtonElement>(null);
  const alertRef = useRef<HTMLParagraphElement>(null);

  async function reload(force: boolean) {
    reloading.value = true;
    const result = await ask(() => sendMessage('refreshProfile', { force }));
    reloading.value = false;
    alert.value = result.ok ? null : alertOf(result.error);
    if (result.ok && force) status.value = t('profileUpdated');
    if (force) focusLater(() => (result.ok ? reloadRef.current : alertRef.current), result.ok);
  }

  useEffect(() => {
    void reload(false);
  }, []);

  /** What a reload said is over once something else happens in the section (a save): never left beside its outcome. */
  function clear() {
    status.value = '';
    alert.value = null;
  }

  return { reloading: reloading.value, status: status.value, alert: alert.value, reload, clear, reloadRef, alertRef };
}
