import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { t } from '../../utils/i18n';
import { settings } from '../../utils/settings';
import type { SessionInfo } from '../../utils/storage-items';
import { SupportDetails } from '../popup/SupportDetails';
import { supportModel } from '../popup/model/support-model';

interface Props {
  session: SessionInfo;
  onDisconnect(): Promise<void>;
}

/**
 * Which panel the panelist is connected to and how (signed in, or with a personal key), with the
 * panel's address and the key's last characters behind "Details for support", and a confirmed way to disconnect.
 */
export function ConnectedInfo({ session, onDisconnect }: Props) {
  const confirming = useSignal(false);
  const busy = useSignal(false);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const disconnectRef = useRef<HTMLButtonElement>(null);
  const opened = useRef(false);

  // The prompt opens on its safe choice, so Enter pressed twice never disconnects; closed, focus is back on Disconnect.
  useEffect(() => {
    if (confirming.value) cancelRef.current?.focus();
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

  const cancel = () => {
    if (!busy.value) confirming.value = false;
  };

  return (
    <div class="connected">
      {/* What the panelist needs to know; the address and how access lasts are for support. */}
      <p class="connected-as">
        {session.signedIn ? t('connectedSignedIn', settings.panelName) : t('connectedWithKey')}
      </p>
      <SupportDetails
        m={supportModel(
          [
            t('supportPanelAddress', session.origin),
            session.signedIn ? t('supportSignedIn') : t('supportKeyEnding', session.tokenHint),
          ].join('\n'),
        )}
      />
      {confirming.value ? (
        // Escape cancels, as it does every prompt of the extension (the popup's Confirm too).
        <div
          class="inline-confirm"
          role="group"
          aria-label={t('confirmDisconnecting')}
          onKeyDown={(e) => {
            if (e.key !== 'Escape') return;
            e.preventDefault();
            cancel();
          }}
        >
          {/* Said by how the panelist connected: a signed-in panelist has no personal key to lose. */}
          <span>{t(session.signedIn ? 'disconnectWarningSignedIn' : 'disconnectWarning')}</span>
          <button type="button" ref={cancelRef} disabled={busy.value} onClick={cancel}>
            {t('cancel')}
          </button>
          <button type="button" class="danger" disabled={busy.value} onClick={() => void disconnect()}>
            {t(busy.value ? 'disconnecting' : 'yesDisconnect')}
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
