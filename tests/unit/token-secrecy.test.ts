// @vitest-environment node
/**
 * The token reaches no message reply, log line, error text or cached object,
 * whatever the server answers — even a server that echoes the token back in its errors.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { handlers, registerHandlers } from '../../entrypoints/background/handlers';
import { startSandbox, type FaultRule, type Sandbox } from '../sandbox/server';
import { settings } from '../../utils/settings';
import { sessionItem } from '../../utils/storage-items';
import { deliver } from './background-helpers';
import { oauthSettingsFor, storeSignedIn } from './sign-in-helpers';

const TOKEN = 'secret-token-7c1e9b2d4f';

let sandbox: Sandbox;
let unregister: () => void;
const logged: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ token: TOKEN });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  fakeBrowser.reset();
  sandbox.reset();
  vi.stubGlobal('chrome', fakeBrowser);
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
  }
  unregister = registerHandlers();
  await deliver('connect', { baseUrl: sandbox.url, token: TOKEN });
});
afterEach(() => {
  unregister();
  vi.restoreAllMocks();
});

/** Stands for the active session's id in a message's data, filled in as it is sent. */
const ACTIVE = Symbol('the active session');
/** Every message of the protocol, with data that makes it reach the server. */
const CALLS: Array<[keyof typeof handlers, unknown]> = [
  ['getSession', undefined],
  ['refreshRewards', { force: true }],
  ['refreshHistory', { force: true }],
  ['refreshProfile', { force: true }],
  ['saveValues', { session: ACTIVE, values: { FIRST_NAME: 'Robin' } }],
  ['deleteValue', { session: ACTIVE, name: 'FIRST_NAME' }],
  ['redeem', { session: ACTIVE, rewardId: 101, points: 500 }],
  ['dismissRedemption', undefined],
  ['setPreferences', { badge: false }],
  ['disconnect', undefined],
];

/** The data with the active session's id where it names {@link ACTIVE}. */
async function withSession(data: unknown): Promise<unknown> {
  if (typeof data !== 'object' || data === null || !('session' in data)) return data;
  const id = (await sessionItem.getValue()).id ?? 'none';
  return { ...data, session: id };
}

const ECHOING_FAULTS: Array<[string, FaultRule]> = [
  ['success', {}],
  [
    '401 echoing the token',
    { status: 401, body: JSON.stringify({ message: `Token ${TOKEN} is not valid` }), times: 100 },
  ],
  [
    '422 naming the token as a field',
    { status: 422, body: JSON.stringify({ message: `Bad value ${TOKEN}`, field: TOKEN }), times: 100 },
  ],
  ['500 echoing the token', { status: 500, body: `Internal error for Bearer ${TOKEN}`, times: 100 }],
  [
    'a wrong-shaped body carrying the token',
    {
      status: 200,
      body: JSON.stringify({ message: 'success', rewards: TOKEN, data: TOKEN, redemptions: TOKEN }),
      times: 100,
    },
  ],
];

describe('the token stays in the background', () => {
  it.each(ECHOING_FAULTS)('no reply, stored item or log line contains it: %s', async (_label, fault) => {
    logged.length = 0;
    if (fault.status !== undefined || fault.body !== undefined) {
      await fetch(`${sandbox.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify(fault) });
    }
    const replies: unknown[] = [];
    for (const [type, data] of CALLS) replies.push(await deliver(type, await withSession(data)));

    expect(JSON.stringify(replies)).not.toContain(TOKEN);
    const storage = await fakeBrowser.storage.local.get(null);
    const pageVisible = Object.fromEntries(Object.entries(storage).filter(([key]) => key !== 'credentials'));
    expect(JSON.stringify(pageVisible)).not.toContain(TOKEN);
    expect(logged.join('\n')).not.toContain(TOKEN);
  });

  it.each(['401', 'a refused refresh echoing it', 'a 500 echoing it'])(
    'signed in, neither the refresh token nor the access token leaks: %s',
    async (label) => {
      const saved = { apiBaseUrl: settings.apiBaseUrl, oauth: settings.oauth };
      Object.assign(settings, { apiBaseUrl: sandbox.url, oauth: oauthSettingsFor(sandbox) });
      try {
        const { token, refreshToken } = await storeSignedIn(sandbox);
        logged.length = 0;
        const echo = `${refreshToken} ${token}`;
        await fetch(`${sandbox.url}/__sandbox/oauth/expire`, { method: 'POST' });
        const tokenFault: FaultRule =
          label === '401'
            ? {
                path: '/oauth/token',
                status: 401,
                body: JSON.stringify({ error: 'invalid_grant', error_description: echo }),
                times: 100,
              }
            : label === 'a 500 echoing it'
              ? {
                  path: '/oauth/token',
                  status: 500,
                  body: JSON.stringify({ error: refreshToken, error_description: echo }),
                  times: 100,
                }
              : {
                  path: '/oauth/token',
                  status: 400,
                  body: JSON.stringify({ error: refreshToken, error_description: echo }),
                  times: 100,
                };
        await fetch(`${sandbox.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify(tokenFault) });
        await fetch(`${sandbox.url}/__sandbox/faults`, {
          method: 'POST',
          body: JSON.stringify({ status: 401, body: JSON.stringify({ message: echo }), times: 100 }),
        });

        const replies: unknown[] = [];
        for (const [type, data] of CALLS) replies.push(await deliver(type, data));
        replies.push(await deliver('signIn', undefined));

        for (const secret of [refreshToken, token]) {
          expect(JSON.stringify(replies)).not.toContain(secret);
          const storage = await fakeBrowser.storage.local.get(null);
          const pageVisible = Object.fromEntries(Object.entries(storage).filter(([key]) => key !== 'credentials'));
          expect(JSON.stringify(pageVisible)).not.toContain(secret);
          expect(logged.join('\n')).not.toContain(secret);
        }
      } finally {
        Object.assign(settings, saved);
      }
    },
  );

  it('is kept in the one item that only background code imports', () => {
    const importers = sourceFiles(['components', 'entrypoints', 'utils']).filter((file) =>
      /from '[^']*\/credentials'/.test(readFileSync(file, 'utf8')),
    );
    expect(importers.length).toBeGreaterThan(0);
    expect(importers.filter((file) => !file.startsWith(join('entrypoints', 'background')))).toEqual([]);
  });
});

function sourceFiles(roots: string[]): string[] {
  return roots.flatMap((root) =>
    readdirSync(root).flatMap((name) => {
      const path = join(root, name);
      if (statSync(path).isDirectory()) return sourceFiles([path]);
      return /\.tsx?$/.test(name) ? [path] : [];
    }),
  );
}
