import type { Ref } from 'preact';
import { SupportDetails } from '../popup/SupportDetails';
import { supportModel } from '../popup/model/support-model';
import type { Alert } from './error-text';

interface Props {
  /** Progress and success, announced politely; the element stays so screen readers track it. */
  status: string;
  /** A failure, announced at once; absent when null or empty. */
  alert: Alert | null;
  /** Given where focus moves to the failure (after a button the panelist pressed). */
  alertRef?: Ref<HTMLParagraphElement>;
}

/** The live regions every options section reports through. */
export function SectionFeedback({ status, alert, alertRef }: Props) {
  return (
    <>
      <p role="status" class="status">
        {status}
      </p>
      <AlertView alert={alert} alertRef={alertRef} />
    </>
  );
}

/**
 * A failure in the panelist's words, announced at once; the HTTP status, the endpoint and the
 * panel's own wording behind a closed "Details for support" after it, outside the alert.
 */
export function AlertView({
  alert,
  alertRef,
  class: className = 'alert',
}: {
  alert: Alert | null;
  alertRef?: Ref<HTMLParagraphElement> | undefined;
  class?: string;
}) {
  if (!alert?.text) return null;
  return (
    <>
      <p role="alert" class={className} ref={alertRef} tabIndex={alertRef ? -1 : undefined}>
        {alert.text}
      </p>
      {alert.support && <SupportDetails m={supportModel(alert.support)} />}
    </>
  );
}
