import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { t } from '../../utils/i18n';
import { settings } from '../../utils/settings';
import type { SessionInfo } from '../../utils/storage-items';

interface Props {
  session: SessionInfo;
  onDisconnect(): Promise<void>;
}

/** Which panel (by name, with its address for support) and which key are in use, and a confirmed way to disconnect. */
export function ConnectedInfo({ session, onDisconnect }: Props) {
  const confirming = useSignal(false);
  const busy = useSignal(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const disconnectRef = useRef<HTMLButtonElement>(null);
  const opened = useRef(false);

  useEffect(() => {
    if (confirming.value) confirmRef.current?.focus();
    else if (opened.current) disconnectRef.current?.focus();
    opened.current = confirming.value;
  }, [confirming.value]);

  async function disconnect() {
    busy.value = true;
    try {
      await onDisconnect();
    } finally {
      busy.value = false;
      confirming.value = false;
    }
  }

  return (
    <div class="connected">
      <dl class="facts">
        <div>
          <dt>{t('connectedPanel')}</dt>
          <dd>
            {settings.panelName} <span class="origin muted">{session.origin}</span>
          </dd>
        </div>
        <div>
          <dt>{t(session.signedIn ? 'accessHeading' : 'accessToken')}</dt>
          <dd>{session.signedIn ? t('signedInRenews') : t('tokenEndingIn', session.tokenHint)}</dd>
        </div>
      </dl>
      {confirming.value ? (
        <div class="inline-confirm" role="group" aria-label={t('confirmDisconnecting')}>
          {/* Said by how the panelist connected: a signed-in panelist has no personal key to lose. */}
          <span>{t(session.signedIn ? 'disconnectWarningSignedIn' : 'disconnectWarning')}</span>
          <button type="button" class="danger" ref={confirmRef} disabled={busy.value} onClick={() => void disconnect()}>
            {t(busy.value ? 'disconnecting' : 'yesDisconnect')}
          </button>
          <button type="button" disabled={busy.value} onClick={() => (confirming.value = false)}>
            {t('cancel')}
          </button>
        </div>
      ) : (
        <button type="button" ref={disconnectRef} onClick={() => (confirming.value = true)}>
          {t('disconnect')}
        </button>
      )}
    </div>
  );
}
