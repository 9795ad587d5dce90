import { useSignal, type Signal } from '@preact/signals';
import type { Ref } from 'preact';
import { useRef } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { checkBaseUrl, hostPermissionPattern, reachableByBuild } from '../../utils/base-url';
import { appError, type AppError } from '../../utils/errors';
import { t, type MessageKey } from '../../utils/i18n';
import { sendMessage } from '../../utils/messages';
import { sentences } from '../../utils/sentences';
import { settings } from '../../utils/settings';
import { ask } from './ask';
import { alertOf, type Alert } from './error-text';
import { AlertView } from './SectionFeedback';
import { focusLater } from './focus-later';

interface Props {
  initialBaseUrl: string;
  /** A connect is under way: what the section said before ("Disconnected.") is no longer so. */
  onConnecting(): void;
  /** Announced by the section once the session has switched to connected. */
  onConnected(origin: string): void;
}

/** The origin of the panel this build was made for (granted at install), or '' when it has none. */
function buildOrigin(): string {
  const build = checkBaseUrl(settings.apiBaseUrl);
  return build.ok ? build.origin : '';
}

/** Must run inside the click's task: browsers only grant host access on a user gesture. */
function requestHostAccess(origin: string, builtIn: string): Promise<boolean> {
  if (origin === builtIn) return Promise.resolve(true);
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

/**
 * The panelist's personal key (the API token) and, behind "Advanced" when the build knows the panel,
 * its address; checked here first and then by the background with a real call.
 */
export function ConnectForm({ initialBaseUrl, onConnecting, onConnected }: Props) {
  const builtIn = buildOrigin();
  const baseUrl = useSignal(initialBaseUrl);
  // Development builds (npm start) carry the sandbox's token; release builds carry none.
  const token = useSignal(settings.devToken);
  const urlError = useSignal('');
  const tokenError = useSignal('');
  const formError = useSignal<Alert | null>(null);
  const busy = useSignal(false);
  // The address stays open once it differs from the build's, so what will be used is in view.
  const advanced = useSignal(Boolean(builtIn) && initialBaseUrl !== settings.apiBaseUrl);
  const urlRef = useRef<HTMLInputElement>(null);
  const tokenRef = useRef<HTMLInputElement>(null);
  const errorRef = useRef<HTMLParagraphElement>(null);

  function submit(event: Event) {
    event.preventDefault();
    if (busy.value) return;
    formError.value = null;
    const parsed = checkBaseUrl(baseUrl.value);
    // A build made for one panel may reach only that one (and local test servers): its manifest
    // lists no other origin, so the browser could not grant one (utils/base-url.ts).
    const checked =
      parsed.ok && !reachableByBuild(parsed.origin, settings.apiBaseUrl)
        ? { ok: false as const, message: t('urlNotInBuild', builtIn) }
        : parsed;
    const secret = token.value.trim();
    urlError.value = checked.ok ? '' : checked.message;
    tokenError.value = secret ? '' : t('enterAccessToken');
    // A wrong address is shown even when it sits behind "Advanced".
    if (!checked.ok) advanced.value = true;
    if (!secret) return tokenRef.current?.focus();
    if (!checked.ok) return focusLater(() => urlRef.current);
    // Nothing may be awaited before this call, or the browser no longer sees a user gesture.
    const access = requestHostAccess(checked.origin, builtIn);
    onConnecting();
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
      formError.value = refusalAlert(result.error);
      focusLater(() => errorRef.current);
      return;
    }
    token.value = '';
    onConnected(result.data.origin || origin);
  }

  const urlField = <UrlField value={baseUrl} error={urlError.value} builtIn={builtIn} inputRef={urlRef} />;

  return (
    <form class="connect-form" onSubmit={submit} noValidate aria-labelledby="connection-heading">
      <TokenField value={token} error={tokenError.value} inputRef={tokenRef} />
      {builtIn ? (
        // The build knows the panel: the address is there for the rare panelist told to change it.
        <details class="advanced" open={advanced.value} onToggle={(e) => (advanced.value = e.currentTarget.open)}>
          <summary>{t('connectAdvanced')}</summary>
          {urlField}
        </details>
      ) : (
        urlField
      )}
      <AlertView alert={formError.value} alertRef={errorRef} />
      <button type="submit" class="primary" disabled={busy.value}>
        {t(busy.value ? 'connecting' : 'connect')}
      </button>
    </form>
  );
}

/** What a refused connect says, with the step that helps with that kind of failure. */
function refusalAlert(error: AppError): Alert {
  const stepKey = error.kind === 'permission_denied' ? 'stepAllowAccess' : NEXT_STEP[error.kind];
  const step = stepKey && t(stepKey);
  // The generic refusal says to reconnect on this very page; here the useful news is that this
  // key was refused, by the panel named as the panelist knows it.
  // The typed key stays in the field so a typo in the address does not cost re-pasting it.
  return error.kind === 'unauthorized'
    ? alertOf(error, step, sentences(t('tokenRefusedBy', settings.panelName), step ?? ''))
    : alertOf(error, step);
}

interface FieldProps {
  value: Signal<string>;
  /** What is wrong with the value; '' when nothing is. */
  error: string;
  inputRef: Ref<HTMLInputElement>;
}

/** The panel's address, with the build's panel named in its hint when the build knows one. */
function UrlField({ value, error, inputRef, builtIn }: FieldProps & { builtIn: string }) {
  return (
    <div class="field">
      <label for="api-base-url">{t('apiBaseUrl')}</label>
      <input
        id="api-base-url"
        ref={inputRef}
        class="input"
        type="url"
        inputMode="url"
        autocomplete="url"
        spellcheck={false}
        value={value.value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'api-base-url-error' : 'api-base-url-hint'}
        onInput={(e) => (value.value = e.currentTarget.value)}
      />
      {error ? (
        <p id="api-base-url-error" class="field-error" role="alert">
          {error}
        </p>
      ) : (
        <p id="api-base-url-hint" class="hint">
          {builtIn ? t('addressHintBuild', settings.panelName) : t('apiBaseUrlHint')}
        </p>
      )}
    </div>
  );
}

/** The personal key, hidden as typed, with where to find it when the operator says. */
function TokenField({ value, error, inputRef }: FieldProps) {
  return (
    <div class="field">
      <label for="access-token">{t('accessToken')}</label>
      <p id="access-token-hint" class="hint">
        {t('tokenHint', settings.panelName)}
        {settings.tokenHelpUrl && (
          <>
            {' '}
            <a href={settings.tokenHelpUrl} target="_blank" rel="noopener noreferrer">
              {t('tokenHelpLink')}
            </a>
          </>
        )}
      </p>
      <input
        id="access-token"
        ref={inputRef}
        class="input"
        type="password"
        autocomplete="off"
        autocapitalize="off"
        spellcheck={false}
        value={value.value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'access-token-hint access-token-error' : 'access-token-hint'}
        onInput={(e) => (value.value = e.currentTarget.value)}
      />
      {error && (
        <p id="access-token-error" class="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
