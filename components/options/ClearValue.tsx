import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { t } from '../../utils/i18n';

interface Props {
  question: string;
  /** Deletes the stored value; resolves when the background has answered. */
  onConfirm(): Promise<void>;
}

/**
 * "Clear" with an inline confirmation: deleting a stored answer cannot be undone, and a browser
 * `confirm()` dialog would block the page and read poorly. Focus follows the choice so keyboard
 * users stay where they were.
 */
export function ClearValue({ question, onConfirm }: Props) {
  const confirming = useSignal(false);
  const busy = useSignal(false);
  const clearRef = useRef<HTMLButtonElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);

  useEffect(() => {
    if (confirming.value) confirmRef.current?.focus();
    else if (returnFocus.current) clearRef.current?.focus();
    returnFocus.current = false;
  }, [confirming.value]);

  if (!confirming.value) {
    return (
      <button type="button" class="link-button" ref={clearRef} onClick={() => (confirming.value = true)}>
        {t('clearAnswer')}
        <span class="visually-hidden"> {question}</span>
      </button>
    );
  }

  async function confirm() {
    busy.value = true;
    try {
      await onConfirm();
    } finally {
      busy.value = false;
      returnFocus.current = true;
      confirming.value = false;
    }
  }

  return (
    <div class="inline-confirm" role="group" aria-label={t('removeAnswerTo', question)}>
      <span>{t('removeAnswerWarning')}</span>
      <button type="button" class="danger" ref={confirmRef} disabled={busy.value} onClick={confirm}>
        {t(busy.value ? 'removing' : 'removeAnswer')}
      </button>
      <button
        type="button"
        disabled={busy.value}
        onClick={() => {
          returnFocus.current = true;
          confirming.value = false;
        }}
      >
        {t('cancel')}
      </button>
    </div>
  );
}
