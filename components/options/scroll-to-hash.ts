import { useEffect } from 'preact/hooks';

/**
 * Where a link into the options page lands: `#welcome` at install, `#connection` to reconnect, `#personal-key` to paste a
 * key (the popup's prompt), a section by its name (the summary's links).
 * `#history` (the popup's History, a notification) is the history section's own (HistorySection),
 * which also waits for its rows and follows a later `hashchange`.
 */
const TARGETS: Record<string, string> = {
  // The install's welcome (Welcome.tsx): read first, the way in right after it.
  '#welcome': 'welcome-heading',
  '#connection': 'connection-heading',
  '#personal-key': 'access-token',
  '#profile': 'profile-heading',
  '#balance': 'balance-heading',
  '#preferences': 'preferences-heading',
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
    // A heading takes focus for this (and shows no ring: theme.css); a field takes it as it is.
    if (!target.matches('input, select, textarea, button')) target.setAttribute('tabindex', '-1');
    target.scrollIntoView({ block: 'start' });
    target.focus({ preventScroll: true });
  }, [ready]);
}
