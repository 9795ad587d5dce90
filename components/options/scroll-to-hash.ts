import { useEffect } from 'preact/hooks';

/**
 * Where a link into the options page lands: `#connection` to reconnect, `#balance` to the chart.
 * `#history` (the popup's History, a notification) is the history section's own (HistorySection),
 * which also waits for its rows and follows a later `hashchange`.
 */
const TARGETS: Record<string, string> = {
  '#connection': 'connection-heading',
  '#balance': 'balance-heading',
};

/**
 * The sections render once the session is read, after the browser's own jump to the fragment
 * found nothing: scrolls there (and moves focus, for keyboard and screen reader users) once
 * `ready`, one time per page load.
 */
export function useScrollToHash(ready: boolean): void {
  useEffect(() => {
    const id = TARGETS[location.hash];
    const target = id && ready ? document.getElementById(id) : null;
    if (!target) return;
    target.setAttribute('tabindex', '-1');
    target.scrollIntoView({ block: 'start' });
    target.focus({ preventScroll: true });
  }, [ready]);
}
