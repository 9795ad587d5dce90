import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ConnectionSection } from '../../components/options/ConnectionSection';
import { sendMessage, type Result } from '../../utils/messages';
import { DISCONNECTED, sessionItem, type SessionInfo } from '../../utils/storage-items';
import * as page from './options-fixtures';

vi.mock('../../utils/messages', () => ({ sendMessage: vi.fn() }));
vi.mock('../../utils/settings', () => ({
  settings: { apiBaseUrl: 'https://panel.example.com/api', panelName: 'Test Panel', brandColor: '#000', balanceVariable: 'P', geckoId: 'x', devToken: '' },
}));

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

const mount = () => page.mountInto(container, <ConnectionSection />);
const byLabel = (text: string) => page.byLabel(container, text);
const button = (name: string) => page.button(container, name);
const { click, settle, type } = page;

async function fill(url: string, token: string) {
  await type(byLabel('API base URL'), url);
  await type(byLabel('Access token'), token);
}

const alerts = () => [...container.querySelectorAll('[role=alert]')].map((e) => e.textContent);

beforeEach(() => {
  fakeBrowser.reset();
  container = page.newContainer();
  handlers = {};
  send.mockReset();
  send.mockImplementation(async (type, data) => (await handlers[type]?.(data)) ?? { ok: true, data: null });
  permissionRequest = vi.fn(async () => true);
  fakeBrowser.permissions.request = permissionRequest as unknown as typeof fakeBrowser.permissions.request;
});

afterEach(() => page.dropContainer(container));

describe('connect form', () => {
  it('prefills the build URL and keeps the token field private', async () => {
    await mount();
    expect(byLabel('API base URL').value).toBe('https://panel.example.com/api');
    const token = byLabel('Access token');
    expect(token.type).toBe('password');
    expect(token.getAttribute('autocomplete')).toBe('off');
    // spellcheck is a DOM property happy-dom lacks; the e2e test reads it in Chromium.
  });

  it('prefills the URL of a stored session whose token was refused, and says to reconnect', async () => {
    await sessionItem.setValue({ ...CONNECTED, baseUrl: 'https://other.example.org', rejected: true });
    await mount();
    expect(alerts()).toEqual([expect.stringContaining('Your access token was not accepted — reconnect')]);
    expect(byLabel('API base URL').value).toBe('https://other.example.org');
    expect(container.textContent).not.toContain('Disconnect');
  });

  it.each([
    ['a malformed URL', 'panel.example.com', 'tok-1234', /not a complete web address/],
    ['plain http to another host', 'http://panel.example.com', 'tok-1234', /Plain http:\/\/ is not safe/],
    ['an empty token', 'https://panel.example.com', '   ', /Enter the access token/],
  ])('refuses %s with a message and sends nothing', async (_, url, token, message) => {
    await mount();
    await fill(url, token);
    await click(button('Connect'));
    expect(alerts()).toEqual([expect.stringMatching(message)]);
    expect(send).not.toHaveBeenCalled();
    expect(permissionRequest).not.toHaveBeenCalled();
    expect(byLabel('Access token').value).toBe(token);
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
    expect(container.querySelector('[role=status]')?.textContent).toBe('Connected to https://panel.example.com.');
    expect(container.textContent).toContain('Token ending in ••••abcd');
    expect(container.textContent).toContain('https://panel.example.com');
    expect(container.querySelector('input[type=password]')).toBeNull();
  });

  it('asks for host access to another origin inside the click, before anything is awaited', async () => {
    let requestedBeforeSend = false;
    permissionRequest.mockImplementation(async () => {
      requestedBeforeSend = send.mock.calls.length === 0;
      return true;
    });
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

  it('explains a refused host permission and sends nothing', async () => {
    permissionRequest.mockResolvedValue(false);
    await mount();
    await fill('https://elsewhere.example.net', 'tok-1234');
    await click(button('Connect'));
    expect(send).not.toHaveBeenCalled();
    expect(alerts()).toEqual([expect.stringMatching(/did not allow .*elsewhere\.example\.net.*allow access/)]);
    expect(byLabel('Access token').value).toBe('tok-1234');
  });

  it('shows a refused token with what to do next and keeps the typed token', async () => {
    handlers.connect = () => ({ ok: false, error: { kind: 'unauthorized', message: 'The panel did not accept this access token.', status: 401 } });
    await mount();
    await fill('https://panel.example.com/api', 'wrong-token');
    await click(button('Connect'));
    expect(alerts()).toEqual([
      'https://panel.example.com did not accept this access token. Check that you copied the whole access token from your panel, then connect again.',
    ]);
    expect(byLabel('Access token').value).toBe('wrong-token');
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
    expect(byLabel('Access token').value).toBe('');
  });
});

describe('build settings', () => {
  it('a release build prefills no token', async () => {
    await mount();
    expect(byLabel('Access token').value).toBe('');
  });
});
