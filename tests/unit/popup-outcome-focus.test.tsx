/**
 * Closing the outcome card (Done after a success, Close after a refusal) takes the card and its
 * button away; focus goes back to the reward's row, on its name: not to the page, and not to the
 * Redeem just used, where one more Enter would start the same redemption again.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { appError } from '../../utils/errors';
import { ledgerItem } from '../../utils/storage-items';
import {
  click,
  getByRole,
  giftCard,
  ledger,
  mount,
  queryAllByRole,
  redemption,
  seed,
  unmount,
  waitFor,
} from './popup-fixtures';
import { background } from './fake-background';
import { installI18n } from './i18n-setup';
import { rid } from './test-ids';

vi.mock('../../utils/messages', () => import('./fake-background').then((m) => m.fakeMessages));

const amazon = giftCard(1, 'Amazon $5', 500);
const target = giftCard(2, 'Target $50', 5000);
/** Two values of one brand: one row, the second value a choice on it. */
const cedar5 = giftCard(11, 'Cedar Bakery $5', 500, {
  meta_data: { ...giftCard(11, 'x', 1).meta_data, brand_name: 'Cedar Bakery' },
});
const cedar10 = giftCard(12, 'Cedar Bakery $10', 1000, {
  meta_data: { ...giftCard(12, 'x', 1).meta_data, brand_name: 'Cedar Bakery' },
});

beforeEach(() => {
  fakeBrowser.reset();
  background.calls.length = 0;
  background.answers = {};
});
afterEach(unmount);

/**
 * Presses the card's button, then the background takes the entry away, as dismissRedemption does.
 * The card can be painted before the reward list (separate storage reads); the panelist presses
 * Done on a popup that shows both, so the list is waited for first.
 */
async function closeCard(root: HTMLElement, button: string): Promise<void> {
  await waitFor(() => expect(root.querySelector('li.reward .reward-open')).not.toBeNull());
  const outcome = root.querySelector<HTMLElement>('#redeem-outcome')!;
  await click(getByRole(outcome, 'button', button));
  expect(background.calls.filter((c) => c.type === 'dismissRedemption')).toHaveLength(1);
  await ledgerItem.setValue(null);
  await waitFor(() => expect(root.querySelector('#redeem-outcome')).toBeNull());
}

describe('closing the outcome card returns focus to the reward’s row', () => {
  it('Done after a success: the row’s name, not its Redeem, so one more Enter does not start it again', async () => {
    await seed({
      rewards: [amazon, target],
      balance: 2000,
      ledger: ledger('done', { balanceAfter: 2000, redemption: redemption(77, amazon, '2025-03-01T10:00:00') }),
    });
    const root = mount();
    await waitFor(() => getByRole(root, 'region', 'Redeemed Amazon $5'));
    await closeCard(root, 'Done: Amazon $5');
    expect((getByRole(root, 'button', 'Redeem Amazon $5') as HTMLButtonElement).disabled).toBe(false);
    const name = document.activeElement as HTMLElement;
    expect(name.classList.contains('reward-open')).toBe(true);
    expect(name.textContent).toBe('Amazon $5');
  });

  it('Close after a refusal: the row’s name too', async () => {
    await seed({
      rewards: [amazon, target],
      balance: 300,
      ledger: ledger('failed', {
        balanceAfter: 300,
        error: appError('rejected', 'Insufficient points.', { status: 402, nothingCharged: true }),
      }),
    });
    const root = mount();
    await waitFor(() => getByRole(root, 'alert'));
    await closeCard(root, 'Close: Amazon $5');
    expect((getByRole(root, 'button', 'Redeem Amazon $5') as HTMLButtonElement).disabled).toBe(true);
    const name = document.activeElement as HTMLElement;
    expect(name.classList.contains('reward-open')).toBe(true);
    expect(name.textContent).toBe('Amazon $5');
  });

  it('a brand’s second value: the brand’s row', async () => {
    await seed({
      rewards: [cedar5, cedar10, target],
      balance: 3000,
      ledger: ledger('done', { rewardId: rid(12), rewardName: 'Cedar Bakery $10', points: 1000, balanceAfter: 2000 }),
    });
    const root = mount();
    await waitFor(() => getByRole(root, 'region', 'Redeemed Cedar Bakery $10'));
    await closeCard(root, 'Done: Cedar Bakery $10');
    const row = (document.activeElement as HTMLElement).closest('li.reward');
    expect(row?.querySelector('select.reward-choice option[value="12"]')).not.toBeNull();
    expect(document.activeElement).toBe(row?.querySelector('.reward-open'));
    expect(queryAllByRole(row!, 'button', /^Redeem /)).not.toContain(document.activeElement);
  });

  it('a reward no longer listed: the start of the list, its search field or else its first row', async () => {
    await seed({
      rewards: [amazon, target],
      balance: 2500,
      ledger: ledger('done', { rewardId: rid(99), rewardName: 'Gone $5', balanceAfter: 2000 }),
    });
    let root = mount();
    await waitFor(() => getByRole(root, 'region', 'Redeemed Gone $5'));
    await closeCard(root, 'Done: Gone $5');
    // Two rewards have no search field.
    expect(root.querySelector('#reward-search')).toBeNull();
    expect(document.activeElement).toBe(root.querySelector('.reward-open'));
    unmount();
    background.calls.length = 0;
    const many = Array.from({ length: 12 }, (_, i) => giftCard(100 + i, `Brand${i} $5`, 500));
    await seed({
      rewards: many,
      balance: 2500,
      ledger: ledger('done', { requestId: 'req-2', rewardId: rid(99), rewardName: 'Gone $5', balanceAfter: 2000 }),
    });
    root = mount();
    await waitFor(() => getByRole(root, 'region', 'Redeemed Gone $5'));
    await closeCard(root, 'Done: Gone $5');
    expect(document.activeElement).toBe(root.querySelector('#reward-search'));
  });

  it('in German: Fertig and Schließen do the same', async () => {
    installI18n('de');
    await seed({ rewards: [amazon, target], balance: 2000, ledger: ledger('done', { balanceAfter: 2000 }) });
    let root = mount();
    await waitFor(() => getByRole(root, 'region', 'Amazon $5 eingelöst'));
    await closeCard(root, 'Fertig: Amazon $5');
    expect(document.activeElement).toBe(root.querySelector('.reward-open'));
    expect(document.activeElement?.textContent).toBe('Amazon $5');
    unmount();
    background.calls.length = 0;
    await seed({
      rewards: [amazon, target],
      balance: 2000,
      ledger: ledger('failed', {
        requestId: 'req-de',
        error: appError('rejected', 'Nein.', { status: 422, nothingCharged: true }),
      }),
    });
    root = mount();
    await waitFor(() => getByRole(root, 'alert'));
    await closeCard(root, 'Schließen: Amazon $5');
    expect(document.activeElement).toBe(root.querySelector('.reward-open'));
  });
});
