/**
 * The options page's summary says only what it read: a goal the panelist set is named even before
 * the catalogue is read (or when its read failed), "None yet" only when none is set for this
 * account; the balance is "Loading…" only while its read is under way, "unknown" only when a read
 * found the panel shows none, and said not read after a failed read or when the rewards came without it.
 */
import { createRef } from 'preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { AccountSummary } from '../../components/options/AccountSummary';
import { goalItem, popupViewItem, syncItem } from '../../utils/storage-items';
import * as page from './options-fixtures';
import { waitFor } from './popup-fixtures';
import { rid } from './test-ids';

const ACCOUNT = 'https://panel.example|abcd';
let container: HTMLElement;

beforeEach(() => {
  fakeBrowser.reset();
  container = page.newContainer();
});
afterEach(() => page.dropContainer(container));

/** The summary's line for `term` as it reads now (each item it reads lands in its own turn). */
function current(term: 'Goal' | 'Balance'): string {
  const dt = [...container.querySelectorAll('dt')].find((d) => d.textContent === term);
  return dt?.nextElementSibling?.textContent ?? '';
}

/** The summary mounted, once its line for `term` reads `expected` (or, as a pattern, matches it). */
async function line(term: 'Goal' | 'Balance', expected: string | RegExp): Promise<string> {
  await page.mountInto(container, <AccountSummary account={ACCOUNT} status="" headingRef={createRef()} />);
  await waitFor(() => expect(current(term)).toMatch(expected));
  await page.settle();
  return current(term);
}

describe('the summary’s goal', () => {
  it('a goal set while the catalogue is unread is named, never "None yet"', async () => {
    await goalItem.setValue({ account: ACCOUNT, rewardId: rid(7), rewardName: 'Cedar $5', setAt: 1 });
    await popupViewItem.setValue({ rewards: null, latest: null, profile: null, goal: null });
    expect(await line('Goal', 'Cedar $5')).toBe('Cedar $5');
  });

  it('a goal no longer offered is said so, its name one unit in its own direction', async () => {
    await goalItem.setValue({ account: ACCOUNT, rewardId: rid(7), rewardName: 'Cedar $5', setAt: 1 });
    const rewards = {
      balance: { points: 100, source: 'rewards' as const },
      fetchedAt: Date.now(),
      total: 0,
      first: [],
      next: null,
    };
    await popupViewItem.setValue({ rewards, latest: null, profile: null, goal: { rewardId: rid(7), reward: null } });
    expect(await line('Goal', 'Cedar $5 is no longer offered.')).toBe('Cedar $5 is no longer offered.');
    const dt = [...container.querySelectorAll('dt')].find((d) => d.textContent === 'Goal');
    expect(dt?.nextElementSibling?.querySelector('bdi')?.textContent).toBe('Cedar $5');
  });

  it('"None yet" when no goal is set, or only another account’s', async () => {
    await popupViewItem.setValue({ rewards: null, latest: null, profile: null, goal: null });
    expect(await line('Goal', /^None yet/)).toMatch(/^None yet/);
    await page.unmountFrom(container);
    await goalItem.setValue({
      account: 'https://other.example|wxyz',
      rewardId: rid(7),
      rewardName: 'Cedar $5',
      setAt: 1,
    });
    expect(await line('Goal', /^None yet/)).toMatch(/^None yet/);
  });
});

describe('the summary’s balance', () => {
  const EMPTY_VIEW = { rewards: null, latest: null, profile: null, goal: null };
  const area = (state: {
    loading: boolean;
    attemptedAt: number;
    error?: null | { kind: 'network'; message: string };
  }) => ({
    error: null,
    ...state,
  });

  it('"Loading…" while the catalogue is read, or before it was ever tried', async () => {
    await popupViewItem.setValue(EMPTY_VIEW);
    expect(await line('Balance', 'Loading…')).toBe('Loading…');
    await page.unmountFrom(container);
    const idle = area({ loading: false, attemptedAt: 0 });
    await syncItem.setValue({ rewards: area({ loading: true, attemptedAt: 5 }), history: idle, profile: idle });
    expect(await line('Balance', 'Loading…')).toBe('Loading…');
  });

  it('not read, never "Loading…" nor "unknown", once its read failed', async () => {
    await popupViewItem.setValue(EMPTY_VIEW);
    const idle = area({ loading: false, attemptedAt: 0 });
    const failed = area({ loading: false, attemptedAt: 5, error: { kind: 'network', message: 'offline' } });
    await syncItem.setValue({ rewards: failed, history: idle, profile: idle });
    expect(await line('Balance', /could not/)).toBe('Your balance could not be read');
  });

  it('"Balance unknown" only when a read found the panel shows none', async () => {
    const rewards = {
      balance: { points: null, source: 'unknown' as const },
      fetchedAt: 5,
      total: 0,
      first: [],
      next: null,
    };
    await popupViewItem.setValue({ ...EMPTY_VIEW, rewards });
    const idle = area({ loading: false, attemptedAt: 5 });
    await syncItem.setValue({ rewards: idle, history: idle, profile: idle });
    expect(await line('Balance', 'Balance unknown')).toBe('Balance unknown');
  });

  it('the rewards read but not the balance beside them: said not read, never "unknown" (a panel showing none)', async () => {
    const rewards = {
      balance: { points: null, source: 'unread' as const },
      fetchedAt: 5,
      total: 0,
      first: [],
      next: null,
    };
    await popupViewItem.setValue({ ...EMPTY_VIEW, rewards });
    const idle = area({ loading: false, attemptedAt: 0 });
    const failed = area({ loading: false, attemptedAt: 5, error: { kind: 'network', message: 'offline' } });
    await syncItem.setValue({ rewards: failed, history: idle, profile: idle });
    expect(await line('Balance', /could not/)).toBe('Your balance could not be read');
  });
});
