/**
 * A panelist who connected through "Sign in" has no personal key. What the
 * options page tells them (the disconnect prompt, the words after it, the notification choice, a
 * refusal's message and next step) is worded by how they connected; a pasted key keeps its words.
 * In a build that offers sign-in, in English and German.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ConnectionSection } from '../../components/options/ConnectionSection';
import { connectedBy, errorText } from '../../components/options/error-text';
import { OptionsApp } from '../../components/options/OptionsApp';
import { PreferencesSection } from '../../components/options/PreferencesSection';
import { appError } from '../../utils/errors';
import { sendMessage, type Result } from '../../utils/messages';
import { settings } from '../../utils/settings';
import { NO_METADATA } from '../../utils/sign-in-server';
import {
  DISCONNECTED,
  preferencesItem,
  profileItem,
  sessionItem,
  syncItem,
  type SessionInfo,
} from '../../utils/storage-items';
import { installI18n } from './i18n-setup';
import * as page from './options-fixtures';

vi.mock('../../utils/messages', () => ({ sendMessage: vi.fn() }));
vi.mock('../../utils/settings', async () => ({
  settings: (await import('./sign-in-settings')).SIGN_IN_SETTINGS,
}));

const send = sendMessage as unknown as page.SendMock;
const KEY: SessionInfo = {
  connected: true,
  baseUrl: 'https://panel.example.com/api',
  origin: 'https://panel.example.com',
  tokenHint: 'abcd',
  rejected: false,
  id: 's1',
};
const SIGNED_IN: SessionInfo = { ...KEY, tokenHint: '', signedIn: true };
const IDLE = { loading: false, error: null, attemptedAt: 0 };

let container: HTMLElement;

beforeEach(() => {
  fakeBrowser.reset();
  container = page.newContainer();
  send.mockReset();
  send.mockImplementation(async (type): Promise<Result<unknown>> => {
    if (type === 'disconnect') {
      await sessionItem.setValue(DISCONNECTED);
      return { ok: true, data: DISCONNECTED };
    }
    if (type === 'setPreferences') return { ok: true, data: await preferencesItem.getValue() };
    return { ok: true, data: null };
  });
});
afterEach(async () => {
  await page.dropContainer(container);
  connectedBy.signedIn = false;
});

const status = () => container.querySelector('[role=status]')?.textContent;

describe('disconnecting', () => {
  it('signed in: "You’ll be signed out", then "You are signed out", and focus on Sign in', async () => {
    await sessionItem.setValue(SIGNED_IN);
    await page.mountInto(container, <ConnectionSection />);
    await page.sectionRead(container, '#connection');
    await page.click(page.button(container, 'Disconnect'));
    const prompt = container.querySelector('.inline-confirm')!.textContent;
    expect(prompt).toContain('Disconnect? You’ll be signed out, and the panel data kept in this browser is removed.');
    expect(prompt).not.toMatch(/personal key/i);
    await page.click(page.button(container, 'Yes, disconnect'));
    // Whether the sign-in server asks for the password again is not known (no metadata read): the
    // shared computer's step is said instead.
    expect(status()).toBe(
      'Disconnected. You are signed out, and the panel data was removed from this browser. ' +
        'On a shared computer, also sign out on the panel’s site: its sign-in may still remember you.',
    );
    // Focus goes to the way back in, which in a build with sign-in is Sign in.
    expect(document.activeElement).toBe(page.button(container, 'Sign in to Test Panel'));
  });

  it('in Japanese the two sentences are joined as Japanese writes them: no space after "。"', async () => {
    installI18n('ja');
    await sessionItem.setValue(SIGNED_IN);
    await page.mountInto(container, <ConnectionSection />);
    await page.sectionRead(container, '#connection');
    await page.click(page.button(container, '接続を解除'));
    await page.click(page.button(container, 'はい、解除します'));
    expect(status()).toBe(
      '接続を解除しました。ログアウトし、パネルのデータはこのブラウザから削除されました。' +
        '共有のコンピューターでは、パネルのサイトでもログアウトしてください。サイト側のログインがまだ残っている場合があります。',
    );
  });

  it('signed in at an OpenID provider: the next sign-in asks for the password again, and says so', async () => {
    settings.oauthServer = { metadata: true, openid: true, offlineAccess: true, promptLogin: true, issParameter: true };
    try {
      await sessionItem.setValue(SIGNED_IN);
      await page.mountInto(container, <ConnectionSection />);
      await page.sectionRead(container, '#connection');
      await page.click(page.button(container, 'Disconnect'));
      await page.click(page.button(container, 'Yes, disconnect'));
      expect(status()).toBe(
        'Disconnected. You are signed out, and the panel data was removed from this browser. ' +
          'The next sign-in asks for the password again.',
      );
    } finally {
      settings.oauthServer = NO_METADATA;
    }
  });

  it('with a pasted key, in the same build: the key is named, as before', async () => {
    await sessionItem.setValue(KEY);
    await page.mountInto(container, <ConnectionSection />);
    await page.sectionRead(container, '#connection');
    await page.click(page.button(container, 'Disconnect'));
    expect(container.querySelector('.inline-confirm')!.textContent).toContain(
      'Your personal key and the panel data kept in this browser are removed.',
    );
    await page.click(page.button(container, 'Yes, disconnect'));
    expect(status()).toBe('Disconnected. Your personal key was removed from this browser.');
  });

  it('in German', async () => {
    installI18n('de');
    await sessionItem.setValue(SIGNED_IN);
    await page.mountInto(container, <ConnectionSection />);
    await page.sectionRead(container, '#connection');
    await page.click(page.button(container, 'Verbindung trennen'));
    const prompt = container.querySelector('.inline-confirm')!.textContent;
    expect(prompt).toContain('Sie werden abgemeldet');
    expect(prompt).not.toContain('Schlüssel');
    await page.click(page.button(container, 'Ja, Verbindung trennen'));
    expect(status()).toBe(
      'Verbindung getrennt. Sie sind abgemeldet, und die Panel-Daten wurden aus diesem Browser entfernt. ' +
        'An einem gemeinsam genutzten Computer melden Sie sich auch auf der Website des Panels ab: ' +
        'Die Anmeldung dort könnte sich noch an Sie erinnern.',
    );
  });
});

describe('the notification choice', () => {
  const rejectedLabel = () => container.querySelector('label[for="pref-notify-rejected"]')?.textContent;

  beforeEach(async () => {
    await preferencesItem.setValue({ badge: true, refreshMinutes: 30, notify: true });
  });

  it('signed in: "you need to sign in again"; with a key: "the panel stops accepting your personal key"', async () => {
    await sessionItem.setValue(SIGNED_IN);
    await page.mountInto(container, <PreferencesSection />);
    await page.sectionRead(container, '#preferences');
    expect(rejectedLabel()).toBe('you need to sign in again');
    await sessionItem.setValue(KEY);
    await page.settle();
    expect(rejectedLabel()).toBe('the panel stops accepting your personal key');
  });

  it('in German', async () => {
    installI18n('de');
    await sessionItem.setValue(SIGNED_IN);
    await page.mountInto(container, <PreferencesSection />);
    await page.sectionRead(container, '#preferences');
    expect(rejectedLabel()).toBe('Sie sich erneut anmelden müssen');
  });
});

describe('a refusal in a section', () => {
  const refused = appError('unauthorized', 'Your personal key was not accepted. Reconnect in Settings.', {
    status: 401,
    endpoint: '/v1/panel/variables',
  });

  it('of a signed-in session reads as the sign-in having ended, with the way back', async () => {
    await sessionItem.setValue({ ...SIGNED_IN, rejected: true });
    await profileItem.setValue({
      data: { definitions: page.EVERY_KIND_OF_QUESTION, values: {} },
      fetchedAt: Date.now(),
    });
    await syncItem.setValue({ rewards: IDLE, history: IDLE, profile: { ...IDLE, error: refused } });
    await page.mountInto(container, <OptionsApp />);
    // The words follow the session, read on its own.
    const alerts = () => [...container.querySelectorAll('#profile [role=alert]')].map((a) => a.textContent);
    await vi.waitFor(
      () => expect(alerts()).toContain('Your sign-in to Test Panel has expired. Sign in again under “Connection”.'),
      { timeout: 10_000 },
    );
    expect(alerts().join(' ')).not.toMatch(/personal key/i);
  });

  it('words follow how the panelist connected, in English and German', () => {
    expect(errorText(refused)).toBe(
      'Test Panel no longer accepts your personal key. Reconnect with a current personal key under “Connection”.',
    );
    connectedBy.signedIn = true;
    expect(errorText(refused)).toBe('Your sign-in to Test Panel has expired. Sign in again under “Connection”.');
    installI18n('de');
    expect(errorText(refused)).toBe(
      'Ihre Anmeldung bei Test Panel ist abgelaufen. Melden Sie sich unter „Verbindung“ erneut an.',
    );
  });
});
