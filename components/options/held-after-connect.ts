import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * False from the render in which the page sees its session become usable (a connect or sign-in
 * made here) until that render has been painted; true otherwise, so a page opened connected renders
 * everything at once. What it holds back is painted one frame later: the account's sections, which
 * have nothing read yet at that moment, while "Connected" (the summary and the connection's card)
 * is on screen without waiting for their render (15–20 ms of a connect's 40–60 under load:
 * JOURNAL.md, "Connecting").
 */
export function useShownAfterConnecting(usable: boolean, known: boolean): boolean {
  const was = useRef<boolean | undefined>(undefined);
  const held = useRef(false);
  const [, release] = useState(0);
  if (known) {
    if (usable && was.current === false) held.current = true;
    was.current = usable;
  }
  const holding = held.current;
  // Preact runs effects once the frame is painted.
  useEffect(() => {
    if (!holding) return;
    held.current = false;
    release((n) => n + 1);
  }, [holding]);
  return !holding;
}
