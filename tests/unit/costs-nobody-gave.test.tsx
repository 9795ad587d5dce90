/**
 * A points cost nobody gave is never stated, offered or confirmed: a reward the panel lists
 * without a `reward_point_cost`, or under an id it lists twice with different costs, is shown
 * without a Redeem, saying why in words, and its Confirm never opens ("for 0 points?"). The rewards
 * come through the real response schema (utils/api/schemas.ts), and as an earlier version stored
 * them (no quarantine mark, only a null cost).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { background } from './fake-background';
import { click, getByRole, giftCard, mount, seed, unmount, waitFor, parsedRewards } from './popup-fixtures';

vi.mock('../../utils/messages', () => import('./fake-background').then((m) => m.fakeMessages));

beforeEach(() => {
  fakeBrowser.reset();
  background.calls.length = 0;
});
afterEach(unmount);

/** The row's Redeem, the reason it gives, and whether a click opens a Confirm. */
async function offered(root: HTMLElement, name: string) {
  const redeem = (await waitFor(() => getByRole(root, 'button', `Redeem ${name}`))) as HTMLButtonElement;
  const why = document.getElementById(redeem.getAttribute('aria-describedby') ?? '')?.textContent ?? null;
  const disabled = redeem.disabled;
  redeem.removeAttribute('disabled');
  await click(redeem);
  return { disabled, why, dialog: root.querySelector('[role="alertdialog"]')?.textContent ?? null };
}

describe('a points cost nobody gave', () => {
  it('a reward listed without a points cost has no Redeem, says why, and never opens "for 0 points?"', async () => {
    await seed({
      rewards: parsedRewards([{ ...giftCard(1, 'Mystery Box', 200), reward_point_cost: null }]),
      balance: 1234,
    });
    const root = mount();
    expect(await offered(root, 'Mystery Box')).toEqual({
      disabled: true,
      why: 'Cannot be redeemed here: the panel gave it no points cost',
      dialog: null,
    });
    expect(background.calls.filter((c) => c.type === 'redeem')).toEqual([]);
  });

  it('one stored by an earlier version (a null cost, no mark) is not offered either', async () => {
    await seed({ rewards: [{ ...giftCard(1, 'Mystery Box', 200), reward_point_cost: null }], balance: 1234 });
    const root = mount();
    const seen = await offered(root, 'Mystery Box');
    expect(seen).toMatchObject({ disabled: true, dialog: null });
    expect(seen.why).toBe('Cannot be redeemed here: the panel gave it no points cost');
  });

  it('an id listed twice with different costs offers neither: never "for 50 points" charged 500', async () => {
    await seed({
      rewards: parsedRewards([giftCard(1, 'Cheap Cinema', 50), giftCard(1, 'Dear Cinema', 500)]),
      balance: 1234,
    });
    const root = mount();
    for (const name of ['Cheap Cinema', 'Dear Cinema']) {
      const seen = await offered(root, name);
      expect(seen, name).toEqual({
        disabled: true,
        why: 'Cannot be redeemed here: the panel lists it twice with different costs',
        dialog: null,
      });
    }
    expect(root.textContent).not.toMatch(/50 points|500 points/);
  });

  it('a reward listed without a value in money says so, not that its cost cannot be right', async () => {
    const { cost: _cost, ...unvalued } = giftCard(1, 'Mystery Box', 200);
    await seed({ rewards: parsedRewards([unvalued]), balance: 1234 });
    const root = mount();
    expect(await offered(root, 'Mystery Box')).toEqual({
      disabled: true,
      why: 'Cannot be redeemed here: the panel gave it no value in money',
      dialog: null,
    });
  });
});
