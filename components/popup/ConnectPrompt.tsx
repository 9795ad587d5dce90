import { signInConfigured } from '../../utils/build-settings';
import { t } from '../../utils/i18n';
import { settings } from '../../utils/settings';
import { SignIn } from '../options/SignIn';
import { openOptions } from './open-options';

interface Props {
  rejected: boolean;
  /** The rejected session came from sign-in: the way back is signing in again. */
  signedIn?: boolean | undefined;
}

/** Shown instead of data when there is no token, or the server stopped accepting it. */
export function ConnectPrompt({ rejected, signedIn }: Props) {
  return (
    <section class="prompt" aria-labelledby="connect-title">
      <h2 id="connect-title">{t(rejected ? 'reconnectTitle' : 'connectTitle')}</h2>
      <p>
        {t(rejected ? (signedIn ? 'signInExpired' : 'reconnectText') : 'connectText')}
      </p>
      {signInConfigured(settings) && <SignIn buttonClass="btn btn-primary" alertClass="error" />}
      <button type="button" class={signInConfigured(settings) ? 'btn' : 'btn btn-primary'} onClick={openOptions}>
        {t(rejected ? 'reconnectButton' : 'connectButton')}
      </button>
    </section>
  );
}
