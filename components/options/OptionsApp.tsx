import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../../utils/i18n';
import { settings } from '../../utils/settings';
import { accountOf, sessionItem } from '../../utils/storage-items';
import { useStorageItem } from '../../utils/use-storage-item';
import { AccountSummary } from './AccountSummary';
import { BalanceSection } from './BalanceSection';
import { ConnectionSection } from './ConnectionSection';
import { connectedBy } from './error-text';
import { focusLater } from './focus-later';
import { useShownAfterConnecting } from './held-after-connect';
import { HistorySection } from './HistorySection';
import { PreferencesSection } from './PreferencesSection';
import { ProfileSection } from './ProfileSection';
import { useScrollToHash } from './scroll-to-hash';
import { Welcome, WELCOME_HASH } from './Welcome';

/**
 * The options page: connected, what matters first (the account's summary), then the
 * profile, history and balance, then the connection and preferences; not connected, the way in first.
 */
export function OptionsApp() {
  const session = useStorageItem(sessionItem);
  // Before the sections render, so what they say of a refusal names the way in use.
  connectedBy.signedIn = session.value?.signedIn === true;
  const connected = session.value?.connected ?? false;
  const usable = connected && !session.value?.rejected;
  // Remounting per connection keeps one account's screen state from leaking into the next.
  const account = session.value ? `${session.value.origin}|${session.value.tokenHint}` : '';
  const summary = useRef<HTMLHeadingElement>(null);
  const [connectedNow, setConnectedNow] = useState('');
  // Connecting here (Enter in the form, Sign in) replaces the form: focus goes on to the account it opened.
  const wasLive = useRef<boolean | undefined>(undefined);
  useEffect(() => {
    if (session.value === undefined) return;
    if (wasLive.current === false && usable) {
      setConnectedNow(t('connectedToOrigin', settings.panelName));
      focusLater(() => summary.current);
    }
    wasLive.current = usable;
  }, [usable, session.value === undefined]);
  useScrollToHash(session.value !== undefined);
  const sectionsShown = useShownAfterConnecting(usable, session.value !== undefined);
  return (
    <main class="options">
      <header class="page-head">
        <h1>{settings.panelName}</h1>
        <p class="muted">{t('settingsSubtitle')}</p>
      </header>
      {/* The way in comes first while there is none, or the panel refused the last one. */}
      {/* One keyed section in either place: moving keeps what it says ("Disconnected." after disconnecting). */}
      {/* Opened once by the install (options.html#welcome): the welcome, then the way in. */}
      {!connected && location.hash === WELCOME_HASH && <Welcome />}
      {!usable && <ConnectionSection key="connection" />}
      {connected ? (
        <>
          <AccountSummary
            key={`summary|${account}`}
            account={accountOf(session.value!)}
            status={connectedNow}
            headingRef={summary}
          />
          {/* Connected here: the sections follow "Connected" a frame later (held-after-connect.ts). */}
          {sectionsShown && (
            <>
              <ProfileSection key={`profile|${account}`} account={accountOf(session.value!)} />
              <HistorySection key={`history|${account}`} />
              <BalanceSection key={`balance|${account}`} />
            </>
          )}
        </>
      ) : (
        session.value && <p class="card muted">{t('connectForMore')}</p>
      )}
      {usable && <ConnectionSection key="connection" />}
      <PreferencesSection />
    </main>
  );
}
