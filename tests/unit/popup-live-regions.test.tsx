/**
 * A screen reader hears a change of state, never the clock: the outcome card of a redemption still
 * being checked and the "Still being checked" list show how long ago the last check was and when
 * the next one comes, as time passes, outside any live region; what their live regions say changes
 * only when a check starts, ends without finding it, or one settles. Breakages this fails on: the
 * countdown back inside the card's polite region ("Next check in about 5 minutes", then "about 4
 * minutes"), the list itself polite again ("Checked just now", then "1 min ago").
 */
import { render } from 'preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { RedeemOutcome } from '../../components/popup/redeem/RedeemOutcome';
import { StillChecking } from '../../components/popup/redeem/StillChecking';
import { settledItem, type LedgerEntry } from '../../utils/storage-items';
import { background } from './fake-background';
import { click, getByRole, ledger, waitFor } from './popup-fixtures';

vi.mock('../../utils/messages', () => import('./fake-background').then((m) => m.fakeMessages));

const T0 = Date.now();
const MINUTE = 60_000;
let root: HTMLElement;

beforeEach(() => {
  fakeBrowser.reset();
  background.calls.length = 0;
  background.answers = {};
  root = document.createElement('div');
  document.body.append(root);
});
afterEach(() => {
  render(null, root);
  root.remove();
});

/** What every live region holds now: each `aria-live`, `status` and `alert`, and what is inside them. */
const spoken = () =>
  [...root.querySelectorAll('[aria-live], [role=status], [role=alert]')].map((el) => el.textContent ?? '');

const unknown = (extra: Partial<LedgerEntry> = {}) =>
  ledger('unknown', {
    startedAt: T0 - MINUTE,
    checks: { done: 1, nextAt: T0 + 5 * MINUTE, lastAt: T0 - 30_000 },
    ...extra,
  });

describe('the outcome card of a redemption still being checked', () => {
  const card = (now: number) => (
    <RedeemOutcome entry={unknown()} balance={2500} now={now} onDismiss={() => undefined} />
  );

  it('the countdown moves on screen and in no live region', async () => {
    render(card(T0), root);
    await waitFor(() => expect(root.textContent).toContain('Next check in about 5 minutes'));
    const before = spoken();
    render(card(T0 + MINUTE), root);
    await waitFor(() => expect(root.textContent).toContain('Next check in about 4 minutes'));
    expect(spoken()).toEqual(before);
    expect(spoken().join(' ')).not.toMatch(/minute/);
  });

  it('a check the panelist asks for is said when it starts and when it ends without finding it, once each', async () => {
    let answer!: (value: { ok: true; data: null }) => void;
    background.answers.checkRedemption = () => new Promise((resolve) => (answer = resolve));
    render(card(T0), root);
    await click(await waitFor(() => getByRole(root, 'button', 'Check now whether Amazon $5 went through')));
    await waitFor(() => expect(spoken()).toContain('Checking your history now…'));
    answer({ ok: true, data: null });
    await waitFor(() => expect(spoken()).toContain('Checked just now — not in your history yet.'));
    // Time passes: "1 min ago" on screen, nothing new said.
    const after = spoken();
    render(card(T0 + 2 * MINUTE), root);
    await waitFor(() => expect(root.textContent).toContain('2 min'));
    expect(spoken()).toEqual(after);
  });
});

describe('the “Still being checked” list', () => {
  const list = (entries: LedgerEntry[], now: number) => <StillChecking entries={entries} now={now} />;

  it('its lines keep time on screen only; a check and a redemption settling are said', async () => {
    render(list([unknown()], T0), root);
    await click(await waitFor(() => getByRole(root, 'button', 'Check now whether Amazon $5 went through')));
    await waitFor(() => expect(spoken().join(' ')).toContain('Checked just now — not in your history yet.'));
    const before = spoken();
    render(list([unknown()], T0 + 3 * MINUTE), root);
    await waitFor(() => expect(root.textContent).toContain('3 min'));
    expect(spoken()).toEqual(before);
    // It settles: that is said.
    await settledItem.setValue([{ ...unknown(), state: 'done' }]);
    render(list([], T0 + 3 * MINUTE), root);
    await waitFor(() => expect(spoken().join(' ')).toContain('Amazon $5'));
  });
});
