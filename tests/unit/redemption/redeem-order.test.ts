// @vitest-environment node
/**
 * What a Confirm carries from the popup and what the background checks before anything leaves:
 * the session the popup showed (a Confirm is never carried out for whichever account is connected
 * by then), through the message door, against the sandbox over real HTTP.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { registerHandlers } from '../../../entrypoints/background/handlers';
import { ledgerItem } from '../../../utils/storage-items';
import type { Sandbox } from '../../sandbox/server';
import { activeSessionId, closeSandboxes, deliver, startTwoAccounts } from '../background-helpers';

const REDEEM = '/v1/panel/redemption';

let a: Sandbox;
let b: Sandbox;
let unregister: () => void;

beforeAll(async () => {
  ({ a, b } = await startTwoAccounts({ timeoutMs: 3000, retryBaseDelayMs: 1 }));
});
afterAll(() => closeSandboxes(a, b));
beforeEach(async () => {
  fakeBrowser.reset();
  a.reset();
  b.reset();
  // @webext-core/messaging listens through the `chrome` global.
  vi.stubGlobal('chrome', fakeBrowser);
  unregister = registerHandlers();
  await deliver('connect', { baseUrl: a.url, token: a.token });
  await a.idle();
});
afterEach(() => {
  unregister();
  vi.unstubAllGlobals();
});

const redeems = (sandbox: Sandbox) => sandbox.requests.filter((r) => r.path === REDEEM).length;

describe('the session travels with the redeem', () => {
  it('a Confirm names the session the popup showed, and is carried out for it', async () => {
    const session = await activeSessionId();
    const reply = await deliver('redeem', { session, rewardId: '101' });
    expect(reply).toMatchObject({ ok: true, data: { rewardId: '101', state: 'done' } });
    expect(redeems(a)).toBe(1);
  });

  it('a Confirm of a session that has ended is refused, and nothing reaches either panel', async () => {
    const shown = await activeSessionId();
    // Another account connects while the Confirm dialog is still open (a popup opened as a tab).
    await deliver('connect', { baseUrl: b.url, token: b.token });
    await b.idle();
    const reply = await deliver('redeem', { session: shown, rewardId: '101' });
    expect(reply).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect((reply as { error: { message: string } }).error.message).toMatch(/another account/i);
    expect(redeems(a) + redeems(b)).toBe(0);
    expect(await ledgerItem.getValue()).toBeNull();
  });

  it('a Confirm that names no session is refused at the door', async () => {
    const reply = await deliver('redeem', { rewardId: '101' });
    expect(reply).toMatchObject({ ok: false, error: { kind: 'bad_request' } });
    expect(redeems(a)).toBe(0);
  });
});
