import type { Ref } from 'preact';

interface Props {
  /** Progress and success, announced politely; the element stays so screen readers track it. */
  status: string;
  /** A failure, announced at once; absent when empty. */
  alert: string;
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
      {alert && (
        <p role="alert" class="alert" ref={alertRef} tabIndex={alertRef ? -1 : undefined}>
          {alert}
        </p>
      )}
    </>
  );
}
