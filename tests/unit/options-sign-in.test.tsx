/** "Sign in to <panel>" on the options page and in the popup's connect prompt. */
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ConnectionSection } from '../../components/options/ConnectionSection';
import { ConnectPrompt } from '../../components/popup/ConnectPrompt';
import { appError } from '../../utils/errors';
import { t } from '../../utils/i18n';
import { sendMessage, type Result } from '../../utils/messages';
import { DISCONNECTED, sessionItem } from '../../utils/storage-items';
import * as page from './options-fixtures';

vi.mock('../../utils/messages', () => ({ sendMessage: vi.fn() }));
vi.mock('../../utils/settings', async () => ({
  settings: (await import('./sign-in-settings')).SIGN_IN_SETTINGS,
}));

const send = sendMessage as unknown as page.SendMock;
let container: HTMLElement;
let request: Mock<(p: { permissions: string[] }) => Promise<boolean>>;
let answer: () => Result<unknown>;

beforeEach(async () => {
  fakeBrowser.reset();
  container = page.newContainer();
  answer = () => ({ ok: true, data: { connected: true, origin: 'https://panel.example.com' } });
  send.mockReset();
  send.mockImplementation(async () => answer());
  request = vi.fn(async () => true);
  // Pages reach storage through the browser's own namespace (utils/storage-item.ts): it stays the fake's.
  vi.stubGlobal('browser', {
    storage: fakeBrowser.storage,
    permissions: { request },
    runtime: { getManifest: () => ({ optional_permissions: ['identity'] }) },
  });
  await sessionItem.setValue(DISCONNECTED);
});
afterEach(async () => {
  vi.stubGlobal('browser', fakeBrowser);
  await page.dropContainer(container);
});

const signInButton = () => page.button(container, 'Sign in to Test Panel');
const alerts = () => [...container.querySelectorAll('[role=alert]')].map((e) => e.textContent);

describe('sign in on the options page', () => {
  it('offers sign-in, keeps the token form behind "Use a personal key instead"', async () => {
    await page.mountInto(container, <ConnectionSection />);
    await page.sectionRead(container, '#connection');
    expect(signInButton()).toBeTruthy();
    const details = container.querySelector('details');
    expect(details?.querySelector('summary')?.textContent).toBe('Use a personal key instead');
    expect(details?.open).toBe(false);
    expect(details?.querySelector('#access-token')).toBeTruthy();
  });

  it('says a sign-in window opens where there is one to ask for, and a tab where there is none (Firefox for Android)', async () => {
    const intro = () => container.querySelector('#connection p.muted')?.textContent;
    // Chrome: `identity` is optional, asked for on the click.
    await page.mountInto(container, <ConnectionSection />);
    await page.sectionRead(container, '#connection');
    expect(intro()).toBe(
      'Sign in with your Test Panel account: a sign-in window opens, and you come back here when you are done.',
    );
    await page.dropContainer(container);
    // Firefox on the desktop: granted at install.
    vi.stubGlobal('browser', {
      storage: fakeBrowser.storage,
      identity: { launchWebAuthFlow: () => undefined },
      runtime: { getManifest: () => ({ permissions: ['identity'] }) },
    });
    container = page.newContainer();
    await page.mountInto(container, <ConnectionSection />);
    await page.sectionRead(container, '#connection');
    expect(intro()).toContain('a sign-in window opens');
    await page.dropContainer(container);
    // Firefox for Android: listed, and no such API.
    vi.stubGlobal('browser', {
      storage: fakeBrowser.storage,
      runtime: { getManifest: () => ({ permissions: ['identity'] }) },
    });
    container = page.newContainer();
    await page.mountInto(container, <ConnectionSection />);
    await page.sectionRead(container, '#connection');
    expect(intro()).toBe(
      'Sign in with your Test Panel account: a tab opens for it, and you come back here when you are done.',
    );
  });

  it('asks for the identity permission in the click, then asks the background to sign in', async () => {
    await page.mountInto(container, <ConnectionSection />);
    await page.sectionRead(container, '#connection');
    await page.click(signInButton());
    expect(request).toHaveBeenCalledWith({ permissions: ['identity'] });
    expect(send.mock.calls.map(([type]) => type)).toEqual(['signIn']);
    // Signed in: nothing went wrong, and "Connected to …" is the account summary's to say (OptionsApp), not said here again.
    expect(container.querySelector('.alert')).toBeNull();
    expect(container.textContent).not.toMatch(/Connected to/);
  });

  it('a refused permission still signs in: the background goes through a tab instead', async () => {
    request.mockResolvedValue(false);
    await page.mountInto(container, <ConnectionSection />);
    await page.sectionRead(container, '#connection');
    await page.click(signInButton());
    expect(send.mock.calls.map(([type]) => type)).toEqual(['signIn']);
    expect(alerts()).toEqual([]);
  });

  it('shows the background’s error as it is, with what to do, and the button stays usable', async () => {
    answer = () => ({
      ok: false,
      error: appError(
        'rejected',
        'The sign-in window was closed before you finished. Press “Sign in” to try again. Nothing was stored.',
      ),
    });
    await page.mountInto(container, <ConnectionSection />);
    await page.sectionRead(container, '#connection');
    await page.click(signInButton());
    expect(alerts()).toContain(
      'The sign-in window was closed before you finished. Press “Sign in” to try again. Nothing was stored.',
    );
    expect(signInButton().disabled).toBe(false);
  });

  it('the sign-in server’s refusal in plain words; its code only under “Details for support”', async () => {
    answer = () => ({
      ok: false,
      error: appError('rejected', t('errSignInRefused', 'HTTP 400'), { status: 400, endpoint: 'token' }),
    });
    await page.mountInto(container, <ConnectionSection />);
    await page.sectionRead(container, '#connection');
    await page.click(signInButton());
    expect(alerts()).toEqual([
      'The panel refused the sign-in. Press “Sign in” to try again; if it keeps happening, contact the panel. Nothing was stored.',
    ]);
    const support = container.querySelector('details.support .support-text')?.textContent ?? '';
    expect(support).toContain('The panel refused the sign-in (HTTP 400).');
    expect(support).toContain('HTTP 400 token');
  });

  it('an expired sign-in asks to sign in again', async () => {
    await sessionItem.setValue({
      connected: true,
      baseUrl: 'https://panel.example.com/api',
      origin: 'https://panel.example.com',
      tokenHint: 'abcd',
      rejected: true,
      signedIn: true,
    });
    await page.mountInto(container, <ConnectionSection />);
    await page.sectionRead(container, '#connection');
    expect(alerts().join(' ')).toMatch(/sign-in has expired/);
    expect(signInButton()).toBeTruthy();
  });
});

describe('sign in from the popup', () => {
  it('the popup has one way in: one welcome line, "Sign in", and the personal key as a small link', async () => {
    await page.mountInto(container, <ConnectPrompt rejected={false} />);
    expect(container.querySelector('h2')?.textContent).toBe('Welcome');
    expect(container.querySelectorAll('p')).toHaveLength(1);
    expect([...container.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Sign in']);
    const key = container.querySelector('a');
    expect(key?.textContent).toBe('Use a personal key instead');
    expect(key?.getAttribute('href')).toBe('options.html#personal-key');
    await page.click(page.button(container, 'Sign in'));
    expect(send.mock.calls.map(([type]) => type)).toEqual(['signIn']);
  });
});

describe('a signed-in session', () => {
  it('the options page says it is signed in instead of showing a token hint', async () => {
    const { ConnectedInfo } = await import('../../components/options/ConnectedInfo');
    const session = {
      connected: true,
      baseUrl: 'https://panel.example.com/api',
      origin: 'https://panel.example.com',
      tokenHint: 'abcd',
      rejected: false,
      signedIn: true,
    };
    await page.mountInto(container, <ConnectedInfo session={session} onDisconnect={async () => undefined} />);
    expect(container.querySelector('.connected-as')?.textContent).toBe('Signed in to Test Panel.');
    expect(container.textContent).not.toContain('abcd');
    // The address and how access lasts are for support, behind a closed disclosure.
    const support = container.querySelector<HTMLDetailsElement>('details.support')!;
    expect(support.open).toBe(false);
    expect(support.querySelector('.support-text')?.textContent).toBe(
      'Panel address: https://panel.example.com\nAccess: signed in, renewed automatically',
    );
  });

  it('the popup asks to sign in again when a signed-in session was refused', async () => {
    await page.mountInto(container, <ConnectPrompt rejected signedIn />);
    expect(container.textContent).toContain('Your sign-in has expired');
    expect([...container.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Sign in']);
  });
});
