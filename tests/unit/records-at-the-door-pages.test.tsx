/**
 * The pages' side of each record checked on its own at the door (utils/api/records.ts): what the
 * API client reads from a hostile panel (the real response schemas) is shown without the figures
 * it cannot mean, and never offered. A `cost` of 1e308 printed a 400-character "£100,000,…" beside
 * an enabled Redeem; a redemption's `reward_point_cost` of -500 read "-500 points" in the history.
 * The background's side, over real HTTP, is in records-at-the-door.test.ts.
 */
import { render } from 'preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { HistoryRow } from '../../components/options/HistoryRow';
import { ProfileSection } from '../../components/options/ProfileSection';
import { LatestRedemption } from '../../components/popup/redeem/LatestRedemption';
import { parseBody, redemptionsResponseSchema, rewardsResponseSchema } from '../../utils/api/schemas';
import { variablesMetaResponseSchema } from '../../utils/api/schemas';
import { formatMoney, MAX_MINOR_UNITS } from '../../utils/format';
import { profileItem } from '../../utils/storage-items';
import type { Redemption, Reward } from '../../utils/types';
import { background } from './fake-background';
import * as page from './options-fixtures';
import { getByRole, giftCard, mount, redemption, seed, unmount, waitFor } from './popup-fixtures';

vi.mock('../../utils/messages', () => import('./fake-background').then((m) => m.fakeMessages));
vi.mock('../../utils/sanitize', () => import('./sanitize-stub'));

beforeEach(() => {
  fakeBrowser.reset();
  background.calls.length = 0;
});
afterEach(unmount);

const rewardsRead = (rewards: unknown[]): Reward[] =>
  parseBody(rewardsResponseSchema, { message: 'success', rewards }, '/v1/panel/rewards').rewards;
const historyRead = (redemptions: unknown[]): Redemption[] =>
  parseBody(redemptionsResponseSchema, { message: 'success', redemptions }, '/v1/panel/redemptions').redemptions;

describe('money beyond what a currency can mean is never printed', () => {
  it('up to 10^15 of the minor unit is printed exactly; beyond, nothing', () => {
    expect(formatMoney(9_999_999_999_999.99, 'USD')).toBe('$9,999,999,999,999.99');
    expect(formatMoney(999_999_999_999_999, 'JPY')).toBe('¥999,999,999,999,999');
    expect(formatMoney(999_999_999_999.999, 'BHD', 'en')).toMatch(/^BHD\s999,999,999,999\.999$/);
    // Where neighbouring cents share one double, the figure would not be the one sent.
    expect(formatMoney(90_071_992_547_409.91, 'USD')).toBeNull();
    expect(formatMoney(MAX_MINOR_UNITS / 100, 'USD')).toBeNull();
    expect(formatMoney(1e15, 'JPY')).toBeNull();
    expect(formatMoney(1e308, 'GBP')).toBeNull();
  });

  it('a reward whose value is 1e308 reads no "£100,000,…" and its Redeem is off, saying why; the rest of the list works', async () => {
    const rewards = rewardsRead([
      giftCard(1, 'Huge Tea', 500, { cost: 1e308, cost_currency: 'GBP' }),
      giftCard(2, 'Null Books', 500, { cost: null as never }),
      giftCard(3, 'Numbered Games', 500, { cost_currency: 826 as never }),
      giftCard(4, 'Fine Coffee', 500, { cost: 5, cost_currency: 'USD' }),
    ]);
    await seed({ rewards, balance: 2500 });
    const root = mount();
    await waitFor(() => getByRole(root, 'button', 'Redeem Fine Coffee'));
    expect(root.textContent).not.toMatch(/£|100,000|826/);
    const reasons = {
      'Huge Tea': 'a cost that cannot be right',
      'Null Books': 'no value in money',
      'Numbered Games': 'a cost that cannot be right',
    };
    for (const [name, reason] of Object.entries(reasons)) {
      const redeem = getByRole(root, 'button', `Redeem ${name}`) as HTMLButtonElement;
      expect(redeem.disabled, name).toBe(true);
      const why = document.getElementById(redeem.getAttribute('aria-describedby') ?? '');
      expect(why?.textContent, name).toBe(`Cannot be redeemed here: the panel gave it ${reason}`);
      // The points are a figure it can mean: still shown.
      expect(redeem.closest('li')?.textContent, name).toContain('500 points');
    }
    const fine = getByRole(root, 'button', 'Redeem Fine Coffee') as HTMLButtonElement;
    expect(fine.disabled).toBe(false);
    expect(fine.closest('li')?.textContent).toContain('$5.00');
  });
});

describe('a redemption whose points are no number of points', () => {
  const [coffee] = rewardsRead([giftCard(4, 'Fine Coffee', 500)]);
  const raw = (points: unknown, extra: Record<string, unknown> = {}) => ({
    ...redemption(9001, coffee!, '2026-01-02T10:00:00'),
    reward_point_cost: points,
    ...extra,
  });

  it.each([-500, 1.5, '500'])('%s is not shown in the history row nor the popup’s latest redemption', (points) => {
    const [r] = historyRead([raw(points, { cost: 1e308, currency: 'GBP' })]);
    const box = document.createElement('div');
    document.body.append(box);
    render(
      <ul>
        <HistoryRow redemption={r!} />
      </ul>,
      box,
    );
    expect(box.textContent).toContain('Fine Coffee');
    expect(box.textContent).not.toMatch(/-500|1\.5|500 points|£|points/);
    render(<LatestRedemption redemption={r!} />, box);
    expect(box.textContent).toContain('Fine Coffee');
    expect(box.textContent).not.toMatch(/-500|1\.5|points/);
    render(null, box);
    box.remove();
  });

  it('a redemption whose state flags are not booleans is not guessed: "Status", never "Pending"', () => {
    const [r] = historyRead([raw(500, { failed: 'yes', processed: null })]);
    const box = document.createElement('div');
    document.body.append(box);
    render(
      <ul>
        <HistoryRow redemption={r!} />
      </ul>,
      box,
    );
    expect(box.querySelector('.state')?.textContent).toBe('Status');
    expect(box.textContent).toContain('500 points');
    render(null, box);
    box.remove();
  });
});

describe('a profile question the extension cannot mean', () => {
  let container: HTMLElement;
  beforeEach(async () => {
    container = page.newContainer();
    const definitions = parseBody(
      variablesMetaResponseSchema,
      {
        data: [
          { id: 1, name: 'FIRST_NAME', text: 'What is your first name?', type: 'text', writable: true },
          { id: 2, name: 'PETS', text: 'Which pets do you have?', type: 'checkbox', writable: 'yes', options: [] },
          {
            id: 3,
            name: 'CAR',
            text: 'Do you own a car?',
            type: 'radio',
            writable: true,
            options: [{ id: 31, name: 'YES', text: 'Yes' }, { id: 'no' }],
          },
        ],
      },
      '/v1/panel/variables/meta',
    ).data;
    await profileItem.setValue({ data: { definitions, values: { CAR: 31 } }, fetchedAt: Date.now() });
    await page.asConnected();
  });
  afterEach(() => page.dropContainer(container));

  it('is shown with its answer and why it cannot be answered here; never offered, never counted as open', async () => {
    await page.mountInto(container, <ProfileSection />);
    await page.profileRead(container);
    expect(container.querySelector('input[type="radio"]')).toBeNull();
    expect(() => page.group(container, 'Which pets do you have?')).toThrow();
    const readOnly = [...container.querySelectorAll('.read-only')].map((f) => f.textContent);
    expect(readOnly).toEqual([
      expect.stringContaining('Which pets do you have?'),
      expect.stringContaining('Do you own a car?Yes'),
    ]);
    for (const text of readOnly)
      expect(text).toContain(
        "The extension cannot read how your panel describes this question; answer it on your panel's website",
      );
    expect(container.textContent).toContain('0 of 1 answered');
  });
});
