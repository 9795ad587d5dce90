import { useSignal } from '@preact/signals';
import type { RefObject } from 'preact';
import { useEffect } from 'preact/hooks';

/** Where focus goes after a save, a discard, or the end of answering one at a time. */
export type FocusTarget = 'problem' | 'alert' | 'status' | 'progress';

interface Places {
  form: RefObject<HTMLFormElement | null>;
  heading: RefObject<HTMLHeadingElement | null>;
  saveStatus: RefObject<HTMLParagraphElement | null>;
  saveAlert: RefObject<HTMLParagraphElement | null>;
}

/**
 * Moves focus once the outcome is rendered (the effect runs after that render), not on a timer.
 * Returns the function that asks for it; each call is a new request, even to the same place.
 */
export function useProfileFocus(places: Places): (target: FocusTarget) => void {
  const request = useSignal<{ target: FocusTarget } | null>(null);

  useEffect(() => {
    const target = request.value?.target;
    if (!target) return;
    if (target === 'problem') {
      // The first question with a problem, with the whole question (its label above the control)
      // in view rather than just the control under the sticky save bar.
      const control = places.form.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
      control?.focus({ preventScroll: true });
      control?.closest('.field')?.scrollIntoView?.({ block: 'center' });
    } else if (target === 'alert') {
      places.saveAlert.current?.focus();
    } else if (target === 'progress') {
      const next = document.querySelector<HTMLElement>('.progress-actions button') ?? places.heading.current;
      next?.focus();
    } else {
      // Save and Discard leave the bar with the changes: focus stays there, on the confirmation,
      // unless the panelist has already moved on.
      const active = document.activeElement;
      if (!active || active === document.body || (active as HTMLButtonElement).disabled)
        places.saveStatus.current?.focus();
    }
  }, [request.value]);

  return (target) => (request.value = { target });
}
