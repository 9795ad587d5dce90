// @vitest-environment node
/**
 * A redemption's `created_at` is an instant, not its spelling: the same moment written
 * `2024-09-14 08:12:45` in one read and `2024-09-14T08:12:45.000000Z` in the next (two API servers
 * mid-deploy, a DATETIME column, Laravel's serializer) is the same redemption. Against the sandbox
 * over real HTTP, the panel respelling its history between two reads.
 */
import { describe, expect, it } from 'vitest';
import { connect } from '../../../entrypoints/background/session/session';
import { historyItem, ledgerItem, profileDraftItem } from '../../../utils/storage-items';
import type { Sandbox } from '../../sandbox/server';
import { activeSessionId, armFault, redeemNow, slowReads, twoAccountHooks, until } from '../background-helpers';
import { rid } from '../test-ids';

const REDEEM = '/v1/panel/redemption';
const COFFEE = rid(101); // 500 points; the seeded balance is 2,500

let a: Sandbox;
twoAccountHooks(
  (accounts) => ({ a } = accounts),
  async () => {
    await connect(a.url, a.token);
    await a.idle();
    return slowReads(3);
  },
);

/** The panel writes every redemption's `created_at` in another spelling of the same instant. */
function respell(spelling: (iso: string) => string): void {
  for (const r of a.state.redemptions) r.created_at = spelling(r.created_at.replace(' ', 'T').slice(0, 19));
}
const withSpace = (iso: string) => iso.replace('T', ' ');
const laravel = (iso: string) => `${iso}.000000Z`;

describe('created_at is an instant', () => {
  it('a Confirm that made nothing is never "Redeemed" because the panel respelled an old redemption', async () => {
    respell(withSpace);
    await armFault(a, { path: REDEEM, status: 500, delayMs: 100 });
    const confirming = redeemNow(COFFEE);
    await until(() => a.requests.some((r) => r.path === REDEEM));
    // Another API server answers the read after the answer: the same history, spelled its way.
    respell(laravel);
    const entry = await confirming;
    expect(entry.redemption).toBeUndefined();
    expect(entry).toMatchObject({ state: 'unknown', answer: 'unclear' });
  });

  it('a reconnect of the same key is not "contradicted" by a respelled history: its Confirm and draft stay', async () => {
    await armFault(a, { path: REDEEM, drop: true });
    const open = await redeemNow(COFFEE);
    expect(open.state).toBe('unknown');
    const session = await activeSessionId();
    await profileDraftItem.setValue({ FIRST_NAME: 'Robin' });
    expect((await historyItem.getValue())?.data.length).toBeGreaterThan(0);
    respell(laravel);
    await connect(a.url, a.token);
    expect(await activeSessionId()).not.toBe(session);
    expect(await ledgerItem.getValue()).toMatchObject({ requestId: open.requestId, state: 'unknown' });
    expect(await profileDraftItem.getValue()).toEqual({ FIRST_NAME: 'Robin' });
  });
});
