/**
 * Impossible numbers as the pages show them: a reward whose points cost the panel cannot mean is
 * never "-500 points · Enough points" with Redeem enabled, and a currency that is not an ISO 4217
 * code is never dressed up as money ("ZZZ 5.00", "2 dollars"). The rewards come through the real
 * response schema (utils/api/schemas.ts), as the API client parses them; the background's side,
 * over real HTTP, is in impossible-numbers.test.ts.
 */
import { render } from 'preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { samplesIn } from '../../components/options/BalanceChart';
import { changeSummary } from '../../components/options/BalanceSection';
import { HistoryRow } from '../../components/options/HistoryRow';
import { goalModel } from '../../components/popup/model/goal-model';
import { arrival } from '../../components/popup/redeem/RedeemOutcome';
import { RewardDetails } from '../../components/popup/details/RewardDetails';
import { rowModel } from '../../components/popup/model/row-model';
import { formatMoney, isCurrencyCode } from '../../utils/format';
import { groupRewards } from '../../utils/reward-groups';
import { DAY_MS, type BalanceSample } from '../../utils/balance-trend';
import { background } from './fake-background';
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
  wallet,
  parsedRewards,
} from './popup-fixtures';
import { rid } from './test-ids';

vi.mock('../../utils/messages', () => import('./fake-background').then((m) => m.fakeMessages));
vi.mock('../../utils/sanitize', () => import('./sanitize-stub'));

beforeEach(() => {
  fakeBrowser.reset();
  background.calls.length = 0;
});
afterEach(unmount);

const rowOf = (root: HTMLElement, name: string) => getByRole(root, 'button', `Redeem ${name}`).closest('li')!;

describe('a points cost the panel cannot mean', () => {
  const answer = [
    giftCard(1, 'Negative Books', -500),
    giftCard(2, 'Fraction Games', 12.5),
    giftCard(3, 'Huge Travel', 2 ** 60),
    giftCard(4, 'Fine Coffee', 500),
  ];

  it('reads neither "-500 points" nor "Enough points": its Redeem is disabled and says why; the rest of the list works', async () => {
    await seed({ rewards: parsedRewards(answer), balance: 2500 });
    const root = mount();
    await waitFor(() => getByRole(root, 'button', 'Redeem Fine Coffee'));
    for (const name of ['Negative Books', 'Fraction Games', 'Huge Travel']) {
      const row = rowOf(root, name);
      const redeem = getByRole(row, 'button', `Redeem ${name}`) as HTMLButtonElement;
      expect(redeem.disabled, name).toBe(true);
      expect(row.textContent, name).not.toMatch(/Enough points|-500|12\.5|points? ·/);
      const why = document.getElementById(redeem.getAttribute('aria-describedby') ?? '');
      expect(why?.textContent, name).toBe('Cannot be redeemed here: the panel gave it a cost that cannot be right');
    }
    const fine = rowOf(root, 'Fine Coffee');
    expect((getByRole(fine, 'button', 'Redeem Fine Coffee') as HTMLButtonElement).disabled).toBe(false);
    // An affordable row says nothing of its points: its Redeem is the news.
    expect(fine.textContent).not.toContain('Enough points');
    expect(root.textContent).not.toContain('-500');
  });

  it('the first frame paints the same row: its model is the one the list renders', () => {
    const [negative] = parsedRewards([giftCard(1, 'Negative Books', -500)]);
    const m = rowModel({
      group: groupRewards([negative!])[0]!,
      choice: negative!,
      balance: 2500,
      blocked: false,
      goal: null,
      held: [],
      contact: [],
    });
    expect(m.redeem.disabled).toBe(true);
    expect(m.points).toBeNull();
    expect(m.status.text).toBe('Cannot be redeemed here: the panel gave it a cost that cannot be right');
  });

  it('a click on its Redeem opens no confirmation and sends nothing', async () => {
    await seed({ rewards: parsedRewards(answer), balance: 2500 });
    const root = mount();
    const redeem = await waitFor(() => getByRole(root, 'button', 'Redeem Negative Books'));
    redeem.removeAttribute('disabled');
    await click(redeem);
    expect(root.querySelector('[role="alertdialog"]')).toBeNull();
    expect(background.calls.filter((c) => c.type === 'redeem')).toEqual([]);
  });

  it('after "not found", no Redeem again is offered for it', async () => {
    const rewards = parsedRewards(answer);
    await seed({
      rewards,
      balance: 2500,
      ledger: ledger('not_found', { rewardId: rid(1), rewardName: 'Negative Books', points: null }),
    });
    const root = mount();
    const outcome = await waitFor(() => getByRole(root, 'region', 'Negative Books was not found in your history'));
    expect(queryAllByRole(outcome, 'button', /again/)).toHaveLength(0);
    // As it is offered for a reward whose cost is a cost.
    unmount();
    await seed({
      rewards,
      balance: 2500,
      ledger: ledger('not_found', { requestId: 'req-fine', rewardId: rid(4), rewardName: 'Fine Coffee', points: 500 }),
    });
    const again = mount();
    await waitFor(() => getByRole(again, 'button', 'Redeem again: Fine Coffee'));
  });
});

describe('a currency that is not an ISO 4217 code', () => {
  it('is known by its shape and by Intl', () => {
    for (const code of ['USD', 'EUR', 'GBP', 'JPY']) expect(isCurrencyCode(code), code).toBe(true);
    for (const code of ['ZZZ', 'dollars', 'usd', 'EURO', 'US', '', ' USD', 'XYZ'])
      expect(isCurrencyCode(code), code).toBe(false);
    expect(formatMoney(5, 'ZZZ')).toBeNull();
    expect(formatMoney(2, 'dollars')).toBeNull();
    expect(formatMoney(5, 'USD')).toBe('$5.00');
    // Nor an amount that is no price.
    expect(formatMoney(-5, 'USD')).toBeNull();
    expect(formatMoney(Number.NaN, 'USD')).toBeNull();
  });

  it('is shown as points alone in the list: no "ZZZ 5.00", no "2 dollars"', async () => {
    const answer = [
      giftCard(1, 'Odd Coffee', 500, { cost: 5, cost_currency: 'ZZZ' }),
      { ...wallet(2, 'PayWave Two', 200), cost: 2, cost_currency: 'dollars' },
      giftCard(3, 'Lower Books', 1000, { cost: 10, cost_currency: 'usd' }),
      giftCard(4, 'Fine Cinema', 700, { cost: 7, cost_currency: 'USD' }),
    ];
    await seed({ rewards: parsedRewards(answer), balance: 2500 });
    const root = mount();
    await waitFor(() => getByRole(root, 'button', 'Redeem Fine Cinema'));
    const text = root.textContent ?? '';
    expect(text).not.toMatch(/ZZZ|dollars|usd|5\.00|2\.00|10\.00/);
    expect(rowOf(root, 'Fine Cinema').textContent).toContain('$7.00');
    // Each still redeemable at its points.
    expect((getByRole(root, 'button', 'Redeem Odd Coffee') as HTMLButtonElement).disabled).toBe(false);
    expect(rowOf(root, 'Odd Coffee').textContent).toContain('500 points');
  });

  it('nor in the details’ value range, the outcome’s words or the history', async () => {
    const [odd] = parsedRewards([
      giftCard(1, 'Odd Coffee', 500, {
        cost: 5,
        cost_currency: 'ZZZ',
        meta_data: { value_type: 'VARIABLE_VALUE', min_value: '5.00', max_value: '50.00', currency_code: 'ZZZ' },
      }),
    ]);
    const box = document.createElement('div');
    document.body.append(box);
    render(<RewardDetails reward={odd!} />, box);
    expect(box.textContent).not.toMatch(/ZZZ|5\.00|50\.00/);
    render(null, box);

    expect(arrival(ledger('pending'), odd)).toBe(arrival(ledger('pending'), undefined));

    render(
      <ul>
        <HistoryRow redemption={{ ...redemption(9, odd!, '2026-01-02T10:00:00'), cost: 5, currency: 'dollars' }} />
      </ul>,
      box,
    );
    expect(box.textContent).toContain('500 points');
    expect(box.textContent).not.toMatch(/dollars|5\.00/);
    render(null, box);
    box.remove();
  });
});

describe('a balance read once and not yet backed by a second read', () => {
  const now = Date.now();
  const at = (days: number, points: number, tentative = false): BalanceSample => ({
    at: now - days * DAY_MS,
    points,
    ...(tentative ? { tentative: true as const } : {}),
  });
  const spiked = [at(40, 1000), at(10, 2500), at(0.1, 123_456_789_012, true)];

  it('is in no total, chart or pace: never "123,456,787,778 points earned"', () => {
    expect(changeSummary(spiked, 30, now)).toBe('1,500 points earned in the last 30 days');
    expect(samplesIn(spiked, 30, now).map((s) => s.points)).toEqual([1000, 2500]);
    const goal = goalModel({
      goal: null,
      account: 'a',
      rewards: null,
      points: 2500,
      samples: spiked,
      blocked: null,
      now,
    });
    expect(JSON.stringify(goal)).not.toContain('123,456');
  });
});
