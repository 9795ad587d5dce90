import { useSignal } from '@preact/signals';
import { useRef } from 'preact/hooks';
import { t } from '../../utils/i18n';
import { sendMessage } from '../../utils/messages';
import { settings } from '../../utils/settings';
import { ask } from './ask';
import { alertOf, errorText, type Alert } from './error-text';
import { AlertView } from './SectionFeedback';
import { focusLater } from './focus-later';

interface Props {
  /** The button's classes: the popup and the options page style buttons differently. */
  buttonClass?: string;
  /** Class of the error paragraph. */
  alertClass?: string;
  /** "Sign in" alone: the popup's prompt, under the panel's name, which already says what it is for. */
  short?: boolean;
  onSignedIn?(origin: string): void;
}

type Permissions = { request(p: { permissions: string[] }): Promise<boolean> };
type Runtime = { getManifest(): { optional_permissions?: string[] } };

/**
 * Chrome lists `identity` as optional: it must be requested inside the click, before any await, or
 * the browser no longer sees a user gesture. Firefox has it from install (it cannot be optional
 * there; Firefox for Android has no such API). Refused or not, the sign-in goes on: without the
 * browser's sign-in window the background signs in through a tab. The raw API rather
 * than the polyfill keeps the popup's first chunk small.
 */
function requestIdentity(): Promise<boolean> {
  const api = globalThis as {
    browser?: { permissions: Permissions; runtime: Runtime };
    chrome?: { permissions: Permissions; runtime: Runtime };
  };
  const ext = api.browser ?? api.chrome;
  if (!ext) return Promise.resolve(false);
  if (!ext.runtime.getManifest().optional_permissions?.includes('identity')) return Promise.resolve(true);
  try {
    return ext.permissions.request({ permissions: ['identity'] }).catch(() => false);
  } catch {
    return Promise.resolve(false);
  }
}

/** "Sign in to <panel>": the background runs the sign-in window (or tab) and stores the session it checked. */
export function SignIn({ buttonClass = 'primary', alertClass = 'alert', short = false, onSignedIn }: Props) {
  const busy = useSignal(false);
  const error = useSignal<Alert | null>(null);
  const errorRef = useRef<HTMLParagraphElement>(null);

  function start() {
    if (busy.value) return;
    error.value = null;
    void run(requestIdentity());
  }

  async function run(granted: Promise<boolean>) {
    busy.value = true;
    await granted;
    const result = await ask(() => sendMessage('signIn', undefined));
    busy.value = false;
    if (result.ok) return onSignedIn?.(result.data.origin);
    // The background's sign-in messages already say what to do next. The sign-in server's
    // refusal names its code (an OAuth error, an HTTP status): that is for support, not the alert.
    const refused = result.error.kind === 'rejected' && result.error.endpoint === 'token';
    error.value = alertOf(result.error, '', refused ? t('errSignInRefusedPlain') : errorText(result.error, ''));
    focusLater(() => errorRef.current);
  }

  return (
    <div class="sign-in">
      <button type="button" class={buttonClass} disabled={busy.value} onClick={start}>
        {busy.value ? t('signingIn') : short ? t('signIn') : t('signInTo', settings.panelName)}
      </button>
      <AlertView alert={error.value} alertRef={errorRef} class={alertClass} />
    </div>
  );
}
