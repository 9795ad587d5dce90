import { useSignal } from '@preact/signals';
import { useRef } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { checkBaseUrl, hostPermissionPattern } from '../../utils/base-url';
import { appError, type AppError } from '../../utils/errors';
import { t, type MessageKey } from '../../utils/i18n';
import { sendMessage } from '../../utils/messages';
import { settings } from '../../utils/settings';
import { ask } from './ask';
import { errorText } from './error-text';
import { focusLater } from './focus-later';

interface Props {
  initialBaseUrl: string;
  /** Announced by the section once the session has switched to connected. */
  onConnected(origin: string): void;
}

const BUILD = checkBaseUrl(settings.apiBaseUrl);
const BUILD_ORIGIN = BUILD.ok ? BUILD.origin : '';

/** Must run inside the click's task: browsers only grant host access on a user gesture. */
function requestHostAccess(origin: string): Promise<boolean> {
  if (origin === BUILD_ORIGIN) return Promise.resolve(true);
  try {
    return browser.permissions.request({ origins: [hostPermissionPattern(origin)] }).catch(() => false);
  } catch {
    return Promise.resolve(false);
  }
}

const NEXT_STEP: Partial<Record<AppError['kind'], MessageKey>> = {
  unauthorized: 'stepConnectUnauthorized',
  network: 'stepConnectNetwork',
  invalid_input: 'stepConnectInvalid',
};

/** Base URL and access token, checked here first and then by the background with a real call. */
export function ConnectForm({ initialBaseUrl, onConnected }: Props) {
  const baseUrl = useSignal(initialBaseUrl);
  // Development builds (npm start) carry the sandbox's token; release builds carry none.
  const token = useSignal(settings.devToken);
  const urlError = useSignal('');
  const tokenError = useSignal('');
  const formError = useSignal('');
  const busy = useSignal(false);
  const urlRef = useRef<HTMLInputElement>(null);
  const tokenRef = useRef<HTMLInputElement>(null);
  const errorRef = useRef<HTMLParagraphElement>(null);

  function submit(event: Event) {
    event.preventDefault();
    if (busy.value) return;
    formError.value = '';
    const checked = checkBaseUrl(baseUrl.value);
    const secret = token.value.trim();
    urlError.value = checked.ok ? '' : checked.message;
    tokenError.value = secret ? '' : t('enterAccessToken');
    if (!checked.ok) return urlRef.current?.focus();
    if (!secret) return tokenRef.current?.focus();
    // Nothing may be awaited before this call, or the browser no longer sees a user gesture.
    const access = requestHostAccess(checked.origin);
    void connect(access, checked.baseUrl, checked.origin, secret);
  }

  async function connect(access: Promise<boolean>, url: string, origin: string, secret: string) {
    busy.value = true;
    const granted = await access;
    const result = granted
      ? await ask(() => sendMessage('connect', { baseUrl: url, token: secret }))
      : {
          ok: false as const,
          error: appError('permission_denied', t('hostAccessDenied', origin)),
        };
    busy.value = false;
    if (!result.ok) {
      const stepKey = result.error.kind === 'permission_denied' ? 'stepAllowAccess' : NEXT_STEP[result.error.kind];
      const step = stepKey && t(stepKey);
      // The generic refusal says to reconnect on this very page; here the useful news is which
      // server refused the token.
      const error =
        result.error.kind === 'unauthorized' ? { ...result.error, message: t('tokenRefusedBy', origin) } : result.error;
      // The typed token stays in the field so a typo in the URL does not cost re-pasting it.
      formError.value = errorText(error, step);
      focusLater(() => errorRef.current);
      return;
    }
    token.value = '';
    onConnected(result.data.origin || origin);
  }

  return (
    <form class="connect-form" onSubmit={submit} noValidate aria-labelledby="connection-heading">
      <div class="field">
        <label for="api-base-url">{t('apiBaseUrl')}</label>
        <input
          id="api-base-url"
          ref={urlRef}
          class="input"
          type="url"
          inputMode="url"
          autocomplete="url"
          spellcheck={false}
          value={baseUrl.value}
          aria-invalid={urlError.value ? true : undefined}
          aria-describedby={urlError.value ? 'api-base-url-error' : 'api-base-url-hint'}
          onInput={(e) => (baseUrl.value = e.currentTarget.value)}
        />
        {urlError.value ? (
          <p id="api-base-url-error" class="field-error" role="alert">
            {urlError.value}
          </p>
        ) : (
          <p id="api-base-url-hint" class="hint">
            {t('apiBaseUrlHint')}
          </p>
        )}
      </div>
      <div class="field">
        <label for="access-token">{t('accessToken')}</label>
        <input
          id="access-token"
          ref={tokenRef}
          class="input"
          type="password"
          autocomplete="off"
          autocapitalize="off"
          spellcheck={false}
          value={token.value}
          aria-invalid={tokenError.value ? true : undefined}
          aria-describedby={tokenError.value ? 'access-token-error' : undefined}
          onInput={(e) => (token.value = e.currentTarget.value)}
        />
        {tokenError.value && (
          <p id="access-token-error" class="field-error" role="alert">
            {tokenError.value}
          </p>
        )}
      </div>
      {formError.value && (
        <p role="alert" class="alert" ref={errorRef} tabIndex={-1}>
          {formError.value}
        </p>
      )}
      <button type="submit" class="primary" disabled={busy.value}>
        {t(busy.value ? 'connecting' : 'connect')}
      </button>
    </form>
  );
}
