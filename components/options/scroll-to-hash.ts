import { useEffect } from 'preact/hooks';

/** Where a link into the options page lands: `#history` from a notification, `#connection` to reconnect. */
const TARGETS: Record<string, string> = {
  '#history': 'history-heading',
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
    history.replaceState(null, '', location.pathname);
  }, [ready]);
}
