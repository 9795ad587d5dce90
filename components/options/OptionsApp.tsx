import { t } from '../../utils/i18n';
import { settings } from '../../utils/settings';
import { accountOf, sessionItem } from '../../utils/storage-items';
import { useStorageItem } from '../../utils/use-storage-item';
import { BalanceSection } from './BalanceSection';
import { ConnectionSection } from './ConnectionSection';
import { HistorySection } from './HistorySection';
import { PreferencesSection } from './PreferencesSection';
import { ProfileSection } from './ProfileSection';
import { useScrollToHash } from './scroll-to-hash';

/** The options page: connection first, then what needs a connection, then preferences. */
export function OptionsApp() {
  const session = useStorageItem(sessionItem);
  const connected = session.value?.connected ?? false;
  // Remounting per connection keeps one account's screen state from leaking into the next.
  const account = session.value ? `${session.value.origin}|${session.value.tokenHint}` : '';
  useScrollToHash(session.value !== undefined);
  return (
    <main class="options">
      <header class="page-head">
        <h1>{settings.panelName}</h1>
        <p class="muted">{t('settingsSubtitle')}</p>
      </header>
      <ConnectionSection />
      {connected ? (
        <>
          <ProfileSection key={`profile|${account}`} account={accountOf(session.value!)} />
          <HistorySection key={`history|${account}`} />
          <BalanceSection key={`balance|${account}`} />
        </>
      ) : (
        session.value && (
          <p class="card muted">{t('connectForMore')}</p>
        )
      )}
      <PreferencesSection />
    </main>
  );
}
