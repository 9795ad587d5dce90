/**
 * A balance below zero (a panel that takes points back) is shown as negative
 * everywhere it is formatted or compared, never as "unknown", never as zero.
 *
 * The API client refuses an answer with a balance below zero as unexpected
 * (utils/balance.ts; impossible-numbers.test.ts), so no panel's answer puts one in storage. What
 * stays pinned here is that the pages stay truthful about one all the same (storage written by an
 * older version, a bug elsewhere): the sign is kept, and nothing below zero is called affordable.
 */
import { render } from 'preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ConfirmDialog } from '../../components/popup/redeem/ConfirmDialog';
import { updateBadge } from '../../entrypoints/background/notify/badge';
import { rewardsPart } from '../../entrypoints/background/popup-view';
import { compactPoints } from '../../utils/format';
import { groupRewards, sortGroups } from '../../utils/reward-groups';
import { rewardProgress } from '../../utils/reward-view';
import { popupViewItem, sessionItem } from '../../utils/storage-items';
import { CONNECTED, found, getByRole, giftCard, ledger, mount, seed, unmount, waitFor } from './popup-fixtures';

vi.mock('../../utils/messages', () => import('./fake-background').then((m) => m.fakeMessages));

beforeEach(() => fakeBrowser.reset());
afterEach(() => unmount());

const amazon = giftCard(1, 'Amazon $5', 500);
const free = giftCard(2, 'Free sticker', 0);

describe('compactPoints (the badge text)', () => {
  it('keeps the sign of a balance below zero', () => {
    expect(compactPoints(-1)).toBe('-1');
    expect(compactPoints(-950)).toBe('-950');
    expect(compactPoints(-1250)).toBe('-1.2k');
    expect(compactPoints(-12_500)).toBe('-12k');
    expect(compactPoints(-2_300_000)).toBe('-2.3M');
    expect(compactPoints(-0)).toBe('0');
    expect(compactPoints(-0.5)).toBe('0');
  });

  it("in the language's own digits and decimal sign, with the short suffix that fits a badge", () => {
    expect(compactPoints(1250, 'de')).toBe('1,2k');
    expect(compactPoints(-1250, 'fr')).toBe('-1,2k');
    expect(compactPoints(999_999, 'pl')).toBe('999k');
    expect(compactPoints(2_300_000, 'pt-BR')).toBe('2,3M');
    expect(compactPoints(12_500, 'ja')).toBe('12k');
    expect(compactPoints(950, 'de')).toBe('950');
    expect(compactPoints(1250, 'en')).toBe('1.2k');
  });

  it('is unchanged for zero and above', () => {
    expect(compactPoints(0)).toBe('0');
    expect(compactPoints(950)).toBe('950');
    expect(compactPoints(1250)).toBe('1.2k');
  });
});

describe('reward progress with a negative balance', () => {
  it('needs the cost plus what is owed, and covers nothing', () => {
    expect(rewardProgress(-100, 500)).toEqual({ ratio: 0, affordable: false, missing: 600 });
  });

  it('a free reward is not affordable while points are owed', () => {
    expect(rewardProgress(-100, 0)).toEqual({ ratio: 0, affordable: false, missing: 100 });
    expect(rewardProgress(0, 0)).toEqual({ ratio: 1, affordable: true, missing: 0 });
  });

  it('sorting by what the panelist can afford treats it as a balance', () => {
    expect(sortGroups(groupRewards([amazon, free]), -100, 'afford').map((g) => g.rewards[0]!.name)).toEqual([
      'Free sticker',
      'Amazon $5',
    ]);
  });
});

describe('the toolbar badge', () => {
  it('shows a negative balance with its sign', async () => {
    await sessionItem.setValue(CONNECTED);
    // The badge reads the popup view the background writes with the catalogue.
    await popupViewItem.setValue({
      rewards: rewardsPart({
        data: { rewards: [], balance: { points: -1250, source: 'rewards' } },
        fetchedAt: Date.now(),
      }),
      latest: null,
    });
    await updateBadge();
    expect(await fakeBrowser.action.getBadgeText({})).toBe('-1.2k');
  });
});

describe('the popup', () => {
  it('shows the negative balance in the header, and what each reward still needs', async () => {
    await seed({ rewards: [amazon], balance: -100 });
    const root = mount();
    const header = await waitFor(() => found(root.querySelector('.hdr-balance'), 'the balance'));
    expect(header.textContent).toBe('-100 points');
    expect(root.textContent).not.toContain('unknown');
    expect(root.textContent).toContain('You need 600 more points');
    const bar = root.querySelector('progress')!;
    expect(bar.getAttribute('value')).toBe('0');
    expect(bar.getAttribute('aria-label')).toBe('0 of 500 points');
    expect((getByRole(root, 'button', 'Redeem Amazon $5') as HTMLButtonElement).disabled).toBe(true);
  });

  it('says the balance after a redemption is negative when it is', async () => {
    await seed({ rewards: [amazon], balance: 2500, ledger: ledger('done', { balanceAfter: -20 }) });
    const root = mount();
    const outcome = await waitFor(() => getByRole(root, 'region', 'Redeemed Amazon $5'));
    expect(outcome.textContent).toContain('Your balance is now -20 points.');
  });
});

describe('the confirmation dialog', () => {
  it('takes a balance below zero as known, not unknown: the points still needed, and Confirm off', () => {
    const host = document.createElement('div');
    document.body.append(host);
    render(
      <ConfirmDialog
        reward={amazon}
        cost={500}
        balance={-100}
        busy={false}
        error={null}
        onConfirm={() => {}}
        onCancel={() => {}}
      />,
      host,
    );
    expect(host.querySelector('#confirm-text')?.textContent).toBe(
      'Redeem Amazon $5 for 500 points? You need 600 more points.',
    );
    expect(
      host
        .querySelector<HTMLButtonElement>('[aria-label="Confirm redeeming Amazon $5"]')
        ?.getAttribute('aria-disabled'),
    ).toBe('true');
    render(null, host);
    host.remove();
  });
});
