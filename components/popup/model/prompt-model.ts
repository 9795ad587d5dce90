import { signInConfigured } from '../../../utils/build-settings';
import { t } from '../../../utils/i18n';
import { settings } from '../../../utils/settings';

/** Where the popup's "use a personal key" link opens the options page: its key field, ready to paste into. */
export const KEY_LINK = 'options.html#personal-key';

/**
 * Every word and flag of the prompt to connect: ConnectPrompt and
 * the first frame render it. One welcome line and one way in: "Sign in" where the build
 * offers it, with the personal key as a small link, else "Connect", which opens the key's form.
 * `rejected`: the panel stopped accepting the key or sign-in; `signedIn`: that session came from sign-in.
 */
export function promptModel(rejected: boolean, signedIn: boolean | undefined) {
  const signIn = signInConfigured(settings);
  return {
    title: t(rejected ? 'reconnectTitle' : 'welcomeTitle'),
    text: rejected
      ? signedIn
        ? t('signInExpired')
        : t('keyRefusedText', settings.panelName)
      : t('welcomeText', settings.panelName),
    signIn,
    connect: signIn ? null : t(rejected ? 'reconnectButton' : 'connect'),
    key: signIn ? { text: t('useTokenInstead'), href: KEY_LINK } : null,
  };
}

export type PromptModel = ReturnType<typeof promptModel>;
