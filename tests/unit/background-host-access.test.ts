// @vitest-environment node
/**
 * Host access follows the connection. Two sandboxes stand for two panels: one
 * at 127.0.0.1, one at localhost (host patterns carry no port, so they need two host names).
 * The browser's permission store is a stand-in that behaves as Chrome's does: it refuses to
 * remove a required (manifest) origin.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { credentialsItem } from '../../entrypoints/background/store/credentials';
import { settleHostAccess } from '../../entrypoints/background/session/host-access';
import { connect, disconnect } from '../../entrypoints/background/session/session';
import { signIn } from '../../entrypoints/background/session/sign-in';
import { settings } from '../../utils/settings';
import type { Sandbox } from '../sandbox/server';
import { actAsPanelist, installIdentity, oauthSettingsFor } from './sign-in-helpers';
import { closeSandboxes, firstReadsDone, startTwoAccounts } from './background-helpers';

const A = 'http://127.0.0.1/*';
const B = 'http://localhost/*';
let a: Sandbox;
let b: Sandbox;
/** Panel B as the panelist types it: the localhost name of the second sandbox. */
let bUrl: string;

beforeAll(async () => {
  ({ a, b } = await startTwoAccounts({ timeoutMs: 2000, retries: 0, retryBaseDelayMs: 1 }));
  bUrl = `http://localhost:${b.port}`;
});
afterAll(() => closeSandboxes(a, b));

interface Store {
  granted: Set<string>;
  removed: string[];
  /** Every origin the extension asked to remove, refused or not. */
  asked: string[];
}
let store: Store;

/**
 * The manifest's host permissions (`required`) and what the panelist allowed on Connect (`granted`);
 * an MV2 manifest (Firefox) lists its host permissions among its `permissions`.
 */
function permissions(required: string[], granted: string[], manifestVersion: 2 | 3 = 3): Store {
  const state: Store = { granted: new Set([...required, ...granted]), removed: [], asked: [] };
  const manifest =
    manifestVersion === 3
      ? { manifest_version: 3, name: 'x', version: '1', host_permissions: required }
      : { manifest_version: 2, name: 'x', version: '1', permissions: ['storage', ...required] };
  vi.spyOn(fakeBrowser.runtime, 'getManifest').mockImplementation(
    () => manifest as ReturnType<typeof fakeBrowser.runtime.getManifest>,
  );
  vi.spyOn(fakeBrowser.permissions, 'getAll').mockImplementation(async () => ({
    origins: [...state.granted],
    permissions: ['storage'],
  }));
  vi.spyOn(fakeBrowser.permissions, 'remove').mockImplementation(async ({ origins = [] }) => {
    state.asked.push(...origins);
    if (origins.some((o) => required.includes(o))) throw new Error('You cannot remove required permissions.');
    for (const origin of origins) {
      state.granted.delete(origin);
      state.removed.push(origin);
    }
    return true;
  });
  return state;
}

const fault = (sandbox: Sandbox, rule: object) =>
  fetch(`${sandbox.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify(rule) });

beforeEach(async () => {
  fakeBrowser.reset();
  vi.restoreAllMocks();
  a.reset();
  b.reset();
  await connect(a.url, a.token);
  // Connected to panel A; the panelist has just allowed panel B on Connect.
  store = permissions([], [A, B]);
});

/** The request a connect checks the key with (session.ts). */
const KEY_CHECK = '/v1/panel/variables/data';

describe('host access follows the connection', () => {
  it('a connect the panel refuses gives its origin back and keeps the connected panel’s', async () => {
    const refused = await connect(bUrl, 'wrong-key').catch((e) => e);
    expect(refused.error?.kind).toBe('unauthorized');
    expect([...store.granted]).toEqual([A]);
    expect(store.removed).toEqual([B]);
  });

  it('a connect to a panel that does not answer gives its origin back', async () => {
    await fault(b, { path: KEY_CHECK, drop: true });
    expect((await connect(bUrl, b.token).catch((e) => e)).error?.kind).toBe('network');
    expect([...store.granted]).toEqual([A]);
  });

  it('switching panels gives the old panel’s origin back', async () => {
    await connect(bUrl, b.token);
    expect([...store.granted]).toEqual([B]);
    expect(store.removed).toEqual([A]);
  });

  it('a panel typed with its host spelled another way is one origin: its grant is kept, and it is stored canonical', async () => {
    await connect(`http://LOCALHOST.:${b.port}`, b.token);
    expect([...store.granted]).toEqual([B]);
    expect(store.removed).toEqual([A]);
    expect((await credentialsItem.getValue())?.baseUrl).toBe(bUrl);
  });

  it('Disconnect gives the panel’s origin back', async () => {
    store = permissions([], [A]);
    await disconnect();
    expect(store.granted.size).toBe(0);
    expect(store.removed).toEqual([A]);
  });

  it('never gives back an origin the manifest grants (the build’s own panel)', async () => {
    store = permissions([A], [B]);
    await disconnect();
    expect([...store.granted]).toEqual([A]);
    expect(store.removed).toEqual([B]);
    // Not even asked: a browser that took it away would cut the build's own panel off.
    expect(store.asked).toEqual([B]);
    // Connecting away from the build's panel (allowed again on Connect) leaves it granted too.
    store.granted.add(B);
    await connect(bUrl, b.token);
    expect([...store.granted].sort()).toEqual([A, B].sort());
  });

  it('an MV2 manifest’s host permissions, listed among its permissions, are never given back either', async () => {
    store = permissions([A], [B], 2);
    await disconnect();
    expect([...store.granted]).toEqual([A]);
    expect(store.asked).toEqual([B]);
  });

  it('a browser that lists no origins is asked to remove none', async () => {
    const remove = vi.spyOn(fakeBrowser.permissions, 'remove');
    vi.spyOn(fakeBrowser.permissions, 'getAll').mockImplementation(async () => ({ permissions: ['storage'] }));
    await settleHostAccess();
    expect(remove).not.toHaveBeenCalled();
  });

  it('two connects to one panel: the first to end keeps the origin the other still uses', async () => {
    store = permissions([], [B]);
    // The first connect's key check answers late; the second's is refused at once.
    await fault(b, { path: KEY_CHECK, delayMs: 300 });
    const slow = connect(bUrl, b.token);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await disconnect();
    expect(await connect(bUrl, 'wrong-key').catch((e) => e.error?.kind)).toBe('unauthorized');
    // Still in use by the slow one: not given back.
    expect(store.granted.has(B)).toBe(true);
    await slow;
    expect([...store.granted]).toEqual([B]);
    expect(store.asked).toEqual([]);
    // Its first reads land before the next test's faults are set.
    await firstReadsDone();
  });

  it('an origin a connect is still using is kept while another settling runs, and given back once it failed', async () => {
    await fault(b, { path: KEY_CHECK, delayMs: 300, status: 401, body: '{"message":"Unauthenticated."}' });
    const pending = connect(bUrl, b.token).catch((e) => e);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await disconnect();
    // Disconnect gave back panel A's origin, not the one the connect in progress needs.
    expect(store.removed).toEqual([A]);
    expect(store.granted.has(B)).toBe(true);
    expect((await pending).error?.kind).toBe('unauthorized');
    expect(store.granted.size).toBe(0);
  });

  it('a connect that outlives a disconnect keeps its origin: the panel it stored is in use', async () => {
    await fault(b, { path: KEY_CHECK, delayMs: 300 });
    const pending = connect(bUrl, b.token);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await disconnect();
    await pending;
    expect((await credentialsItem.getValue())?.baseUrl).toBe(bUrl);
    expect([...store.granted]).toEqual([B]);
  });

  it('at browser start, an origin granted for a connect that never came is given back', async () => {
    store = permissions([], [A, B]);
    await settleHostAccess();
    expect([...store.granted]).toEqual([A]);
  });

  it('signing in to the build’s panel gives back the origin of the panel connected by key before', async () => {
    const saved = { apiBaseUrl: settings.apiBaseUrl, oauth: settings.oauth };
    try {
      await connect(bUrl, b.token);
      Object.assign(settings, { apiBaseUrl: a.url, oauth: oauthSettingsFor(a) });
      store = permissions([A], [B]);
      installIdentity((url) => actAsPanelist(url));
      await signIn();
      expect([...store.granted]).toEqual([A]);
      expect(store.removed).toEqual([B]);
    } finally {
      Object.assign(settings, saved);
    }
  });
});
