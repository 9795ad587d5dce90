import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ConnectionSection } from '../../components/options/ConnectionSection';
import { sendMessage, type Result } from '../../utils/messages';
import { DISCONNECTED, sessionItem, type SessionInfo } from '../../utils/storage-items';
import { installI18n } from './i18n-setup';
import * as page from './options-fixtures';

vi.mock('../../utils/messages', () => ({ sendMessage: vi.fn() }));
const build = vi.hoisted(() => ({
  settings: {
    apiBaseUrl: 'https://panel.example.com/api',
    panelName: 'Test Panel',
    brandColor: '#000',
    balanceVariable: 'P',
    tokenHelpUrl: 'https://panel.example.com/account/extension',
    geckoId: 'x',
    devToken: '',
  },
}));
vi.mock('../../utils/settings', () => build);
const RELEASE = { ...build.settings };

type Handler = (data: any) => Result<unknown> | Promise<Result<unknown>>;
const send = sendMessage as unknown as page.SendMock;
const sent = (type: string) => send.mock.calls.filter(([t]) => t === type).map(([, data]) => data);

const CONNECTED: SessionInfo = {
  connected: true,
  baseUrl: 'https://panel.example.com/api',
  origin: 'https://panel.example.com',
  tokenHint: 'abcd',
  rejected: false,
};

let container: HTMLElement;
let handlers: Record<string, Handler>;
let permissionRequest: Mock<(p: { origins?: string[] }) => Promise<boolean>>;

/** The section, once it has read the session. */
const mount = async () => {
  await page.mountInto(container, <ConnectionSection />);
  await page.sectionRead(container, '#connection');
};
const byLabel = (text: string) => page.byLabel(container, text);
const button = (name: string) => page.button(container, name);
const { click, settle, type } = page;

async function fill(url: string, token: string) {
  await type(byLabel('Panel address'), url);
  await type(byLabel('Personal key'), token);
}

const advanced = () => container.querySelector('details');
/** Words a panelist must not meet on this page. */
const DEVELOPER_WORDS = /API base URL|access token|\btoken\b|HTTP \d|https?:\/\/127/i;

const alerts = () => [...container.querySelectorAll('[role=alert]')].map((e) => e.textContent);

beforeEach(() => {
  Object.assign(build.settings, RELEASE);
  fakeBrowser.reset();
  container = page.newContainer();
  handlers = {};
  send.mockReset();
  send.mockImplementation(async (type, data) => (await handlers[type]?.(data)) ?? { ok: true, data: null });
  permissionRequest = vi.fn(async () => true);
  fakeBrowser.permissions.request = permissionRequest;
});

afterEach(() => page.dropContainer(container));

describe('connect form', () => {
  it('asks for the personal key in plain words, with the build\'s address behind "Advanced"', async () => {
    await mount();
    const token = byLabel('Personal key');
    expect(token.type).toBe('password');
    expect(token.getAttribute('autocomplete')).toBe('off');
    // spellcheck is a DOM property happy-dom lacks; the e2e test reads it in Chromium.
    const hint = container.querySelector(`#${token.getAttribute('aria-describedby')}`)!;
    expect(hint.textContent).toContain('A code from your Test Panel account');
    const help = [...hint.querySelectorAll('a')].find((a) => a.textContent === 'Where do I find this?')!;
    expect(help.getAttribute('href')).toBe('https://panel.example.com/account/extension');
    expect(help.getAttribute('target')).toBe('_blank');
    expect(help.getAttribute('rel')).toBe('noopener noreferrer');

    expect(advanced()?.querySelector('summary')?.textContent).toBe('Advanced');
    expect(advanced()?.open).toBe(false);
    expect(advanced()?.contains(byLabel('Panel address'))).toBe(true);
    expect(byLabel('Panel address').value).toBe('https://panel.example.com/api');
    expect(container.textContent).toContain('Change this only if Test Panel asks you to.');
    expect(container.textContent).not.toMatch(DEVELOPER_WORDS);
  });

  it('shows the address field itself when the build has no panel address, and no help link without one', async () => {
    Object.assign(build.settings, { apiBaseUrl: '', tokenHelpUrl: '' });
    await mount();
    expect(advanced()).toBeNull();
    expect(byLabel('Panel address').value).toBe('');
    expect(container.textContent).toContain('For example https://panel.example.com');
    expect(container.querySelector('a')).toBeNull();
  });

  it('prefills the URL of a stored session whose token was refused, and says to reconnect', async () => {
    await sessionItem.setValue({ ...CONNECTED, baseUrl: 'https://other.example.org', rejected: true });
    await mount();
    expect(alerts()).toEqual([
      'Test Panel no longer accepts your personal key. Paste a current key below to reconnect.',
    ]);
    expect(byLabel('Panel address').value).toBe('https://other.example.org');
    // An address other than the build's is not hidden: it is what Connect will use.
    expect(advanced()?.open).toBe(true);
    expect(container.textContent).not.toContain('Disconnect');
  });

  it.each([
    ['a malformed URL', 'panel.example.com', 'tok-1234', /not a complete web address/],
    ['plain http to another host', 'http://panel.example.com', 'tok-1234', /Plain http:\/\/ is not safe/],
    ['an empty key', 'https://panel.example.com', '   ', /Paste your personal key/],
  ])('refuses %s with a message and sends nothing', async (_, url, token, message) => {
    await mount();
    await fill(url, token);
    await click(button('Connect'));
    expect(alerts()).toEqual([expect.stringMatching(message)]);
    expect(send).not.toHaveBeenCalled();
    expect(permissionRequest).not.toHaveBeenCalled();
    expect(byLabel('Personal key').value).toBe(token);
    if (url !== 'https://panel.example.com') expect(advanced()?.open).toBe(true);
  });

  it('connects to the build origin without asking for a permission, then clears the token', async () => {
    handlers.connect = async ({ baseUrl, token }) => {
      const session = { ...CONNECTED, baseUrl, tokenHint: token.slice(-4) };
      await sessionItem.setValue(session);
      return { ok: true, data: session };
    };
    await mount();
    await fill('https://panel.example.com/api/', '  secret-token-abcd ');
    await click(button('Connect'));
    expect(permissionRequest).not.toHaveBeenCalled();
    expect(sent('connect')).toEqual([{ baseUrl: 'https://panel.example.com/api', token: 'secret-token-abcd' }]);
    expect(container.querySelector('.connected-as')?.textContent).toBe('Connected with your personal key.');
    // The account's summary above says "Connected to …" (OptionsApp), where focus goes: not said here again.
    expect(container.querySelector('[role=status]')?.textContent).toBe('');
    expect(container.textContent).not.toMatch(/Connected to/);
    // The address and the key's last characters are for support: behind a closed disclosure, not a line of the card.
    const support = container.querySelector<HTMLDetailsElement>('.connected details.support')!;
    expect(support.open).toBe(false);
    expect(support.querySelector('.support-text')?.textContent).toBe(
      'Panel address: https://panel.example.com\nPersonal key ending in ••••abcd',
    );
    expect(container.querySelector('input[type=password]')).toBeNull();
  });

  it('asks for host access to another origin inside the click, before anything is awaited', async () => {
    let requestedBeforeSend = false;
    permissionRequest.mockImplementation(async () => {
      requestedBeforeSend = send.mock.calls.length === 0;
      return true;
    });
    // A build without a panel address (a build for an https panel reaches no local server).
    Object.assign(build.settings, { apiBaseUrl: '' });
    handlers.connect = () => ({ ok: true, data: { ...CONNECTED, origin: 'http://localhost:8787' } });
    await mount();
    await fill('http://localhost:8787', 'tok-9999');
    const submit = button('Connect');
    await act(() => {
      submit.click();
      // Synchronously within the click: the browser's user-gesture window.
      expect(permissionRequest).toHaveBeenCalledWith({ origins: ['http://localhost/*'] });
    });
    await settle();
    expect(requestedBeforeSend).toBe(true);
    expect(sent('connect')).toEqual([{ baseUrl: 'http://localhost:8787', token: 'tok-9999' }]);
  });

  it('in a build made for one panel, refuses another public address before asking the browser (its manifest lists none)', async () => {
    await mount();
    await fill('https://elsewhere.example.net', 'tok-1234');
    await click(button('Connect'));
    expect(alerts()).toEqual(['This extension connects only to https://panel.example.com: enter that address.']);
    expect(permissionRequest).not.toHaveBeenCalled();
    expect(send).not.toHaveBeenCalled();
    expect(advanced()?.open).toBe(true);
    expect(byLabel('Personal key').value).toBe('tok-1234');
  });

  it('in a build for an https panel, refuses a local address too: its manifest asks for no local access', async () => {
    await mount();
    await fill('http://127.0.0.1:8787', 'tok-1234');
    await click(button('Connect'));
    expect(alerts()).toEqual(['This extension connects only to https://panel.example.com: enter that address.']);
    expect(permissionRequest).not.toHaveBeenCalled();
    expect(send).not.toHaveBeenCalled();
  });

  it('explains a refused host permission and sends nothing', async () => {
    // A build without a panel address: any https:// panel is asked for on Connect.
    Object.assign(build.settings, { apiBaseUrl: '' });
    permissionRequest.mockResolvedValue(false);
    await mount();
    await fill('https://elsewhere.example.net', 'tok-1234');
    await click(button('Connect'));
    expect(send).not.toHaveBeenCalled();
    expect(alerts()).toEqual([expect.stringMatching(/did not allow .*elsewhere\.example\.net.*allow access/)]);
    expect(byLabel('Personal key').value).toBe('tok-1234');
  });

  it('names the panel, not its address, when it cannot be reached', async () => {
    handlers.connect = () => ({
      ok: false,
      error: {
        kind: 'network',
        message:
          'Could not reach the panel at https://panel.example.com. Check your internet connection and try again.',
        endpoint: '/v1/panel/rewards',
      },
    });
    await mount();
    await type(byLabel('Personal key'), 'tok-1234');
    await click(button('Connect'));
    expect(alerts()).toEqual([
      'Test Panel could not be reached. Check your internet connection and the panel address, then connect again.',
    ]);
    expect(byLabel('Personal key').value).toBe('tok-1234');
  });

  it('shows a refused token with what to do next and keeps the typed token', async () => {
    handlers.connect = () => ({
      ok: false,
      error: { kind: 'unauthorized', message: 'The panel did not accept this access token.', status: 401 },
    });
    await mount();
    await fill('https://panel.example.com/api', 'wrong-token');
    await click(button('Connect'));
    expect(alerts()).toEqual([
      'Test Panel did not accept this key. Check that you copied the whole key, then connect again.',
    ]);
    expect(byLabel('Personal key').value).toBe('wrong-token');
    expect(button('Connect').disabled).toBe(false);
  });
});

describe('connected', () => {
  it('disconnects only after confirmation', async () => {
    await sessionItem.setValue(CONNECTED);
    handlers.disconnect = async () => {
      await sessionItem.setValue(DISCONNECTED);
      return { ok: true, data: DISCONNECTED };
    };
    await mount();
    await click(button('Disconnect'));
    expect(send).not.toHaveBeenCalled();
    await click(button('Cancel'));
    expect(send).not.toHaveBeenCalled();
    await click(button('Disconnect'));
    await click(button('Yes, disconnect'));
    expect(sent('disconnect')).toHaveLength(1);
    expect(container.querySelector('[role=status]')?.textContent).toMatch(/Disconnected/);
    expect(byLabel('Personal key').value).toBe('');
    // Not to the page as the confirmation goes, but to the connect form's first field.
    expect(document.activeElement).toBe(byLabel('Personal key'));
  });

  it('“Disconnected.” goes as soon as a new connect starts, not once it is answered', async () => {
    await sessionItem.setValue(CONNECTED);
    handlers.disconnect = async () => {
      await sessionItem.setValue(DISCONNECTED);
      return { ok: true, data: DISCONNECTED };
    };
    let answer!: () => void;
    handlers.connect = ({ baseUrl }) =>
      new Promise((resolve) => (answer = () => resolve({ ok: true, data: { ...CONNECTED, baseUrl } })));
    await mount();
    await click(button('Disconnect'));
    await click(button('Yes, disconnect'));
    expect(container.querySelector('[role=status]')?.textContent).toMatch(/Disconnected/);
    await fill('https://panel.example.com/api', 'secret-token-abcd');
    await click(button('Connect'));
    // The connect is out: what was said before it is no longer so.
    expect(button('Connecting…')).toBeTruthy();
    expect(container.querySelector('[role=status]')?.textContent).toBe('');
    await act(async () => {
      await sessionItem.setValue(CONNECTED);
      answer();
    });
    await settle();
    expect(container.textContent).not.toMatch(/Disconnected/);
  });

  it('the prompt opens on its safe choice, and Escape cancels it: Enter twice never disconnects', async () => {
    await sessionItem.setValue(CONNECTED);
    await mount();
    await click(button('Disconnect'));
    await page.nextFrame();
    expect(document.activeElement).toBe(button('Cancel'));
    document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await settle();
    expect(container.querySelector('.inline-confirm')).toBeNull();
    expect(document.activeElement).toBe(button('Disconnect'));
    expect(send).not.toHaveBeenCalled();
  });

  it('after "Yes, disconnect" focus goes to the connect form even when the session changes only after the answer', async () => {
    await sessionItem.setValue(CONNECTED);
    handlers.disconnect = () => {
      setTimeout(() => void sessionItem.setValue(DISCONNECTED), 20);
      return { ok: true, data: DISCONNECTED };
    };
    await mount();
    await click(button('Disconnect'));
    await click(button('Yes, disconnect'));
    await act(() => new Promise<void>((r) => setTimeout(r, 40)));
    await settle();
    expect(document.activeElement).toBe(byLabel('Personal key'));
  });

  it('in German: "Ja, Verbindung trennen" leads to the field for the personal key', async () => {
    installI18n('de');
    await sessionItem.setValue(CONNECTED);
    handlers.disconnect = async () => {
      await sessionItem.setValue(DISCONNECTED);
      return { ok: true, data: DISCONNECTED };
    };
    await mount();
    await click(button('Verbindung trennen'));
    await click(button('Ja, Verbindung trennen'));
    expect(document.activeElement).toBe(byLabel('Persönlicher Schlüssel'));
  });

  it('says so when the panel could not be told to end the sign-in', async () => {
    await sessionItem.setValue({ ...CONNECTED, signedIn: true });
    handlers.disconnect = async () => {
      await sessionItem.setValue(DISCONNECTED);
      return { ok: true, data: { ...DISCONNECTED, revocationFailed: true } };
    };
    await mount();
    await click(button('Disconnect'));
    await click(button('Yes, disconnect'));
    const status = container.querySelector('[role=status]')?.textContent ?? '';
    expect(status).toMatch(
      /^Disconnected: nothing of your account is kept in this browser any more\. Test Panel could not be reached to end the sign-in there too/,
    );
    expect(status).toContain('remove this extension’s access in your account');
  });
});

describe('build settings', () => {
  it('a release build prefills no token', async () => {
    await mount();
    expect(byLabel('Personal key').value).toBe('');
  });
});
