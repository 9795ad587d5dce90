import { signInConfigured } from '../../utils/build-settings';
import { t } from '../../utils/i18n';
import { settings } from '../../utils/settings';

/**
 * Every word and flag of the prompt to connect (components/popup/frame-fill.ts): ConnectPrompt and
 * the first frame render it. `rejected`: the server stopped accepting the token; `signedIn`: that
 * session came from sign-in, so the way back is signing in again.
 */
export function promptModel(rejected: boolean, signedIn: boolean | undefined) {
  const signIn = signInConfigured(settings);
  return {
    title: t(rejected ? 'reconnectTitle' : 'connectTitle'),
    text: t(rejected ? (signedIn ? 'signInExpired' : 'reconnectText') : 'connectText'),
    signIn,
    button: { class: signIn ? 'btn' : 'btn btn-primary', text: t(rejected ? 'reconnectButton' : 'connectButton') },
  };
}

export type PromptModel = ReturnType<typeof promptModel>;
