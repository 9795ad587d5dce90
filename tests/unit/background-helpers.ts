import { afterAll, beforeAll, beforeEach, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { credentialsItem } from '../../entrypoints/background/credentials';
import { sessionItem } from '../../utils/storage-items';
import { startSandbox, type Sandbox } from '../sandbox/server';

/** Puts the background in the connected state for `sandbox` without going through connect(). */
export async function connectTo(sandbox: Sandbox): Promise<void> {
  await credentialsItem.setValue({ baseUrl: sandbox.url, token: sandbox.token });
  await sessionItem.setValue({
    connected: true,
    baseUrl: sandbox.url,
    origin: sandbox.url,
    tokenHint: sandbox.token.slice(-4),
    rejected: false,
  });
}

export const OWN_PAGE = { id: 'test-extension-id', url: 'chrome-extension://test-extension-id/popup.html' };

/** Sends a message the way @webext-core/messaging frames it, from `sender`, and returns the reply. */
export async function deliver(type: string, data: unknown, sender: object = OWN_PAGE): Promise<unknown> {
  let reply!: (value: unknown) => void;
  const replied = new Promise((resolve) => (reply = resolve));
  await fakeBrowser.runtime.onMessage.trigger({ id: 1, type, data, timestamp: Date.now() }, sender, reply);
  const framed = (await replied) as { res?: unknown; err?: unknown };
  return framed.res;
}

export function apiRequests(sandbox: Sandbox, path: string): number {
  return sandbox.requests.filter((r) => r.path === path && r.method !== 'OPTIONS').length;
}

/**
 * Registers the hooks the background tests share: one sandbox per file, and before each test
 * fresh fake storage, a reset sandbox and stored credentials for it.
 */
export function connectedSandbox(): { sandbox: Sandbox } {
  const env = {} as { sandbox: Sandbox };
  beforeAll(async () => {
    env.sandbox = await startSandbox();
  });
  afterAll(() => env.sandbox.close());
  beforeEach(async () => {
    fakeBrowser.reset();
    env.sandbox.reset();
    await connectTo(env.sandbox);
  });
  return env;
}

export interface ShownNotification {
  id: string;
  title: string;
  message: string;
}

/**
 * Records the notifications the background creates, in `into`, with the permission as `granted`
 * says. The events the fake browser leaves unimplemented are stubbed: clicks are checked in
 * Chromium (tests/e2e/notifications.test.ts).
 */
export function recordNotifications(into: ShownNotification[], granted: () => boolean = () => true): void {
  vi.spyOn(fakeBrowser.permissions, 'contains').mockImplementation(async () => granted());
  vi.spyOn(fakeBrowser.notifications, 'create').mockImplementation((async (id: string, options: { title: string; message: string }) => {
    into.push({ id, title: options.title, message: options.message });
    return id;
  }) as never);
  for (const event of [fakeBrowser.permissions.onAdded, fakeBrowser.notifications.onClicked]) {
    vi.spyOn(event, 'addListener').mockImplementation(() => undefined);
    vi.spyOn(event, 'removeListener').mockImplementation(() => undefined);
    vi.spyOn(event, 'hasListener').mockImplementation(() => false);
  }
}
