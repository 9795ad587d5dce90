import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { t } from '../../utils/i18n';
import { sentences } from '../../utils/sentences';
import { sendMessage } from '../../utils/messages';
import { signInConfigured } from '../../utils/build-settings';
import { settings } from '../../utils/settings';
import { asksPasswordAfterDisconnect } from '../../utils/sign-in-server';
import { sessionItem } from '../../utils/storage-items';
import { useStorageItem } from '../../utils/use-storage-item';
import { ask } from './ask';
import { ConnectedInfo } from './ConnectedInfo';
import { ConnectForm } from './ConnectForm';
import { alertOf, type Alert } from './error-text';
import { SectionFeedback } from './SectionFeedback';
import { SignIn } from './SignIn';
import { signInOpensTab } from './sign-in-door';

const SIGN_IN = signInConfigured(settings);
/** The popup's link to the personal key's field (components/popup/model/prompt-model.ts KEY_LINK). */
export const KEY_HASH = '#personal-key';

/** Connecting the panelist's account: the form, or the connection in use. */
export function ConnectionSection() {
  const session = useStorageItem(sessionItem);
  const status = useSignal('');
  const alert = useSignal<Alert | null>(null);
  const sectionRef = useRef<HTMLElement>(null);
  /** Disconnected here, and the way in not yet on screen to take focus. */
  const refocus = useRef(false);

  /**
   * After "Yes, disconnect" the confirmation goes, and focus with it: it goes on to the way in
   * (never left on the page's top), Sign in where the build offers it, else the connect form's first field.
   */
  function focusWayIn(): boolean {
    const first = sectionRef.current?.querySelector<HTMLElement>(SIGN_IN ? '.sign-in button' : '#access-token');
    first?.focus();
    return Boolean(first);
  }

  async function disconnect() {
    status.value = '';
    alert.value = null;
    // How the panelist had connected, for the words after: the session is gone by then.
    const signedIn = session.value?.signedIn === true;
    const result = await ask(() => sendMessage('disconnect', undefined));
    if (result.ok) {
      const ended = result.data.revocationFailed
        ? t('disconnectedNotEnded', settings.panelName)
        : t(signedIn ? 'disconnectedSignedOut' : 'disconnected');
      // The next sign-in asks the server for the password again (a shared computer): said as
      // known only where its metadata says it does (utils/sign-in-server.ts).
      const next = asksPasswordAfterDisconnect(settings.oauthServer) ? 'signOutPasswordNext' : 'signOutSharedComputer';
      status.value = signedIn ? sentences(ended, t(next)) : ended;
      refocus.current = !focusWayIn();
    } else alert.value = alertOf(result.error, t('stepDisconnectAgain'));
  }

  const current = session.value;
  // Busy until the session is read: no form and no account shown for a session not known.
  const busy = current === undefined || undefined;
  const wayIn = current !== undefined && !(current.connected && !current.rejected);
  useEffect(() => {
    if (wayIn && refocus.current) refocus.current = !focusWayIn();
  }, [wayIn]);
  let body;
  if (current === undefined) {
    body = <p class="muted">{t('loading')}</p>;
  } else if (current.connected && !current.rejected) {
    body = <ConnectedInfo session={current} onDisconnect={disconnect} />;
  } else {
    // What the section said last ("Disconnected.", a refusal) goes once a connect starts, and stays
    // gone: the account's summary, where focus goes, says "Connected to <panel>." (OptionsApp): said once.
    const forgetSaid = () => {
      alert.value = null;
      status.value = '';
    };
    const form = (
      <ConnectForm
        initialBaseUrl={current.baseUrl || settings.apiBaseUrl}
        onConnecting={forgetSaid}
        onConnected={forgetSaid}
      />
    );
    body = (
      <>
        {current.rejected ? (
          <p class="alert" role="alert">
            {current.signedIn ? t('signInExpired') : t('tokenRejectedReconnect', settings.panelName)}
          </p>
        ) : (
          <p class="muted">
            {SIGN_IN
              ? t(signInOpensTab() ? 'signInIntroTab' : 'signInIntro', settings.panelName)
              : t('connectIntro', settings.panelName)}
          </p>
        )}
        {SIGN_IN && <SignIn onSignedIn={forgetSaid} />}
        {/* With sign-in offered, the token form stays one click away. */}
        {SIGN_IN ? (
          // Open where the popup's "Use a personal key instead" leads (options.html#personal-key).
          <details class="token-instead" open={(current.rejected && !current.signedIn) || location.hash === KEY_HASH}>
            <summary>{t('useTokenInstead')}</summary>
            {form}
          </details>
        ) : (
          form
        )}
      </>
    );
  }

  return (
    <section class="card" id="connection" aria-labelledby="connection-heading" aria-busy={busy} ref={sectionRef}>
      <h2 id="connection-heading">{t('connectionHeading')}</h2>
      <SectionFeedback status={status.value} alert={alert.value} />
      {body}
    </section>
  );
}
