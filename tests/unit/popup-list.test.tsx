import { REWARDS_PAGE } from '../../components/popup/model/list-model';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { accountOf, goalItem } from '../../utils/storage-items';
import { installI18n } from './i18n-setup';
import {
  choose,
  click,
  CONNECTED,
  getByRole,
  getByText,
  giftCard,
  mount,
  queryAllByRole,
  rewardOrder,
  seed,
  type,
  unmount,
  waitFor,
  wallet,
} from './popup-fixtures';
import { background } from './fake-background';
import { inHtmlBoxes } from './sanitize-stub';
import { rid } from './test-ids';

vi.mock('../../utils/messages', () => import('./fake-background').then((m) => m.fakeMessages));
// DOMPurify cannot run on happy-dom (see popup-sanitize.test.tsx); mark what passed through it.
vi.mock('../../utils/sanitize', () => import('./sanitize-stub'));

beforeEach(() => {
  fakeBrowser.reset();
  background.calls.length = 0;
});
afterEach(unmount);

const many = [
  giftCard(1, 'Far Away Books', 9000),
  giftCard(2, 'Amazon $5', 500),
  wallet(3, 'PayWave $10', 1000),
  giftCard(4, 'Close Cinema', 1200),
  giftCard(5, 'Cheap Coffee', 200),
  giftCard(6, 'Closer Games', 1100),
  giftCard(7, 'Exact Market', 1000),
  giftCard(8, 'Middle Music', 3000),
  giftCard(9, 'Amazon $50', 5000),
];

const BY_AFFORD = [
  'Cheap Coffee',
  'Amazon',
  'Exact Market',
  'PayWave $10',
  'Closer Games',
  'Close Cinema',
  'Middle Music',
  'Far Away Books',
];

/** "Sort and filter" beside the search shows the sort and type choices. */
async function openFilters(root: HTMLElement, name: string): Promise<void> {
  const toggle = await waitFor(() => getByRole(root, 'button', name));
  expect(toggle.getAttribute('aria-expanded')).toBe('false');
  expect(root.querySelector<HTMLElement>('#reward-filters')?.hidden).toBe(true);
  await click(toggle);
  expect(toggle.getAttribute('aria-expanded')).toBe('true');
  expect(root.querySelector<HTMLElement>('#reward-filters')?.hidden).toBe(false);
}

describe('reward list', () => {
  it('one row per brand, what the panelist can afford first, then the closest, then the cheapest', async () => {
    await seed({ rewards: many, balance: 1000 });
    const root = mount();
    await waitFor(() => getByText(root, 'Cheap Coffee'));
    expect(rewardOrder(root)).toEqual(BY_AFFORD);
    // The catalogue's size in sight, where the panelist starts to search; no count line while nothing is left out.
    expect(getByRole(root, 'searchbox', 'Search rewards').getAttribute('placeholder')).toBe('Search 9 rewards');
    expect(root.querySelector('.list-count')?.textContent).toBe('');
  });

  it('a brand’s values are choices; its one Redeem and its goal toggle act on the chosen value', async () => {
    await seed({ rewards: many, balance: 1000 });
    const root = mount();
    const value = (await waitFor(() => getByRole(root, 'combobox', 'Value of Amazon'))) as HTMLSelectElement;
    expect([...value.options].map((o) => o.textContent)).toEqual(['$5.00 · 500 points', '$50.00 · 5,000 points']);
    const row = value.closest('li')!;
    // The picker is the value's line, beside the kind: not a line of its own under the row.
    expect(value.parentElement?.classList.contains('reward-meta')).toBe(true);
    expect(row.querySelector('.reward-meta .tag')?.textContent).toBe('Gift card');
    expect(row.querySelector('.reward-meta')?.textContent).not.toContain('from');
    expect(queryAllByRole(row, 'button', /^Redeem/)).toHaveLength(1);
    // One place for the action on every row: the goal toggle and Redeem together, in that order.
    expect([...row.querySelectorAll('.reward-actions > button')].map((b) => b.getAttribute('aria-label'))).toEqual([
      'Set as goal: Amazon $5',
      'Redeem Amazon $5',
    ]);
    expect((getByRole(row, 'button', 'Redeem Amazon $5') as HTMLButtonElement).disabled).toBe(false);
    getByRole(row, 'button', 'Set as goal: Amazon $5');

    await choose(value, '9');
    const redeem = getByRole(row, 'button', 'Redeem Amazon $50') as HTMLButtonElement;
    expect(redeem.disabled).toBe(true);
    expect(document.getElementById(redeem.getAttribute('aria-describedby')!)?.textContent).toBe(
      'You need 4,000 more points',
    );
    const goal = getByRole(row, 'button', 'Set as goal: Amazon $50');
    expect(goal.getAttribute('aria-pressed')).toBe('false');
    await click(goal);
    expect(background.calls).toContainEqual({ type: 'setGoal', data: { rewardId: '9' } });
  });

  it('a value offered for several countries: alike variants once, the others each with their countries, never two alike', async () => {
    const cedar = (id: number, points: number, countries: string[]) => {
      const card = giftCard(id, `Cedar Bakery ${points / 100} USD`, points);
      return { ...card, meta_data: { ...card.meta_data, brand_name: 'Cedar Bakery', countries } };
    };
    // "$5.00 · 500 points" three times, two of them for the United States alone.
    const rewards = [
      cedar(21, 500, ['US']),
      cedar(22, 500, ['US', 'CA']),
      cedar(23, 500, ['US']),
      cedar(24, 1000, ['US']),
    ];
    await seed({ rewards, balance: 2000 });
    const root = mount();
    const value = (await waitFor(() => getByRole(root, 'combobox', 'Value of Cedar Bakery'))) as HTMLSelectElement;
    const texts = [...value.options].map((o) => o.textContent);
    expect(texts).toEqual([
      '$5.00 · 500 points · United States',
      '$5.00 · 500 points · United States, Canada',
      '$10.00 · 1,000 points',
    ]);
    expect(new Set(texts).size).toBe(texts.length);
    // The goal on the variant that stands aside: its row starts on it, the toggle pressed.
    unmount();
    await goalItem.setValue({
      account: accountOf(CONNECTED),
      rewardId: rid(23),
      rewardName: 'Cedar Bakery 5 USD',
      setAt: 1,
    });
    const again = mount();
    const chosen = (await waitFor(() => getByRole(again, 'combobox', 'Value of Cedar Bakery'))) as HTMLSelectElement;
    // The goal comes with its own read.
    await waitFor(() => expect(chosen.value).toBe('23'));
    expect([...chosen.options].map((o) => o.value)).toEqual(['23', '22', '24']);
    expect(getByRole(again, 'button', 'Your goal: Cedar Bakery 5 USD').getAttribute('aria-pressed')).toBe('true');
  });

  it('in German: a value offered for several countries names them in German', async () => {
    installI18n('de');
    const card = (id: number, countries: string[]) => ({
      ...giftCard(id, 'Cedar 5', 500),
      meta_data: { ...giftCard(id, 'Cedar 5', 500).meta_data, brand_name: 'Cedar', countries },
    });
    await seed({ rewards: [card(31, ['US']), card(32, ['US', 'CA'])], balance: 2000 });
    const root = mount();
    const value = (await waitFor(() => getByRole(root, 'combobox', 'Wert für Cedar'))) as HTMLSelectElement;
    expect([...value.options].map((o) => o.textContent)).toEqual([
      '5,00\u00a0$ · 500 Punkte · Vereinigte Staaten',
      '5,00\u00a0$ · 500 Punkte · Vereinigte Staaten und Kanada',
    ]);
  });

  it('sorts by what the panelist can afford, by cost either way, or by name', async () => {
    await seed({ rewards: many, balance: 1000 });
    const root = mount();
    await openFilters(root, 'Sort and filter');
    const sort = getByRole(root, 'combobox', 'Sort') as HTMLSelectElement;
    expect([...sort.options].map((o) => o.textContent)).toEqual([
      'Affordable first',
      'Lowest cost',
      'Highest cost',
      'Name',
    ]);
    expect(sort.value).toBe('afford');
    await choose(sort, 'high');
    // A tie at 1,000 points goes by name.
    await waitFor(() =>
      expect(rewardOrder(root)).toEqual([
        'Far Away Books',
        'Amazon',
        'Middle Music',
        'Close Cinema',
        'Closer Games',
        'Exact Market',
        'PayWave $10',
        'Cheap Coffee',
      ]),
    );
    await choose(sort, 'low');
    await waitFor(() =>
      expect(rewardOrder(root)).toEqual([
        'Cheap Coffee',
        'Amazon',
        'Exact Market',
        'PayWave $10',
        'Closer Games',
        'Close Cinema',
        'Middle Music',
        'Far Away Books',
      ]),
    );
    await choose(sort, 'name');
    await waitFor(() =>
      expect(rewardOrder(root)).toEqual([
        'Amazon',
        'Cheap Coffee',
        'Close Cinema',
        'Closer Games',
        'Exact Market',
        'Far Away Books',
        'Middle Music',
        'PayWave $10',
      ]),
    );
  });

  it('filters by type, says so when none is left, and offers every type again', async () => {
    await seed({ rewards: many, balance: 1000 });
    const root = mount();
    await openFilters(root, 'Sort and filter');
    const kind = getByRole(root, 'combobox', 'Type') as HTMLSelectElement;
    expect([...kind.options].map((o) => o.textContent)).toEqual(['All types', 'Gift cards', 'Wallet payouts']);
    await choose(kind, 'wallet');
    await waitFor(() => expect(rewardOrder(root)).toEqual(['PayWave $10']));
    expect(root.querySelector('.list-count')?.textContent).toBe('1 matching reward');
    await type(getByRole(root, 'searchbox', 'Search rewards') as HTMLInputElement, 'amazon');
    await waitFor(() => getByText(root, 'No rewards match “amazon”.'));
    await type(getByRole(root, 'searchbox', 'Search rewards') as HTMLInputElement, '');
    await choose(kind, 'gift');
    await waitFor(() => expect(rewardOrder(root)).toHaveLength(7));
  });

  it('“Show all types” gives focus to the type filter, or to the search box while the filters are folded', async () => {
    await seed({ rewards: many, balance: 1000 });
    const root = mount();
    await openFilters(root, 'Sort and filter');
    const kind = getByRole(root, 'combobox', 'Type') as HTMLSelectElement;
    const search = getByRole(root, 'searchbox', 'Search rewards') as HTMLInputElement;
    await choose(kind, 'wallet');
    await type(search, 'amazon');
    // The button goes with the empty result: focus must not go with it, to the page's body.
    const allTypes = await waitFor(() => getByRole(root, 'button', 'Show all types'));
    allTypes.focus();
    await click(allTypes);
    await waitFor(() => expect(rewardOrder(root)).toEqual(['Amazon']));
    expect(kind.value).toBe('');
    expect(document.activeElement).toBe(kind);

    // Folded, the type filter cannot take focus: the search box, where the panelist was working, does.
    await choose(kind, 'wallet');
    await click(getByRole(root, 'button', 'Sort and filter'));
    expect(root.querySelector<HTMLElement>('#reward-filters')?.hidden).toBe(true);
    const again = await waitFor(() => getByRole(root, 'button', 'Show all types'));
    again.focus();
    await click(again);
    await waitFor(() => expect(rewardOrder(root)).toEqual(['Amazon']));
    expect(document.activeElement).toBe(search);
  });

  it('in German: the sort, the type filter, the count and a brand’s values', async () => {
    installI18n('de');
    await seed({ rewards: many, balance: 1000 });
    const root = mount();
    await openFilters(root, 'Sortieren und filtern');
    const sort = getByRole(root, 'combobox', 'Sortieren') as HTMLSelectElement;
    expect([...sort.options].map((o) => o.textContent)).toEqual([
      'Einlösbare zuerst',
      'Günstigste zuerst',
      'Teuerste zuerst',
      'Nach Name',
    ]);
    expect([...(getByRole(root, 'combobox', 'Art') as HTMLSelectElement).options].map((o) => o.textContent)).toEqual([
      'Alle Arten',
      'Gutscheine',
      'Auszahlungen per Bezahldienst',
    ]);
    expect(getByRole(root, 'searchbox', 'Prämien suchen').getAttribute('placeholder')).toBe('9 Prämien durchsuchen');
    await choose(getByRole(root, 'combobox', 'Art'), 'gift');
    await waitFor(() => expect(root.querySelector('.list-count')?.textContent).toBe('8 passende Prämien · 7 Marken'));
    const value = getByRole(root, 'combobox', 'Wert für Amazon') as HTMLSelectElement;
    expect([...value.options].map((o) => o.textContent)).toEqual([
      '5,00\u00a0$ · 500 Punkte',
      '50,00\u00a0$ · 5.000 Punkte',
    ]);
    expect(value.closest('.reward-meta')?.querySelector('.tag')?.textContent).toBe('Gutschein');
    getByRole(root, 'button', 'Amazon $5 einlösen');
  });

  it('shows money, points, kind, and a progress bar named with the figures only where points are short', async () => {
    await seed({ rewards: [giftCard(2, 'Target $50', 5000), wallet(3, 'PayWave $10', 1000)], balance: 2000 });
    const root = mount();
    await waitFor(() => getByText(root, 'Target $50'));
    // The header names Target $50 as the next reward too: the row is found by its name.
    const target = getByRole(root, 'button', 'Target $50').closest('li')!;
    expect(target.textContent).toContain('Gift card');
    expect(target.textContent).toContain('$50.00');
    expect(target.textContent).toContain('5,000 points');
    const bar = getByRole(target, 'progressbar', '2,000 of 5,000 points') as HTMLProgressElement;
    expect([bar.value, bar.max]).toEqual([2000, 5000]);
    expect(target.textContent).toContain('You need 3,000 more points');

    const paywave = getByRole(root, 'button', 'PayWave $10').closest('li')!;
    expect(paywave.textContent).toContain('Wallet');
    expect(paywave.textContent).toContain('€10.00');
    // A full bar on every affordable row is noise.
    expect(queryAllByRole(paywave, 'progressbar')).toHaveLength(0);
    // Nor a green "Enough points" on it; only what is missing is said.
    expect(paywave.textContent).not.toContain('Enough points');
    expect(paywave.querySelector('.reward-foot .reward-why')?.textContent).toBe('');
  });

  it('disables Redeem with the reason when the known balance is short', async () => {
    await seed({ rewards: [giftCard(2, 'Target $50', 5000), giftCard(3, 'Amazon $5', 500)], balance: 2000 });
    const root = mount();
    const redeem = (await waitFor(() => getByRole(root, 'button', 'Redeem Target $50'))) as HTMLButtonElement;
    expect(redeem.disabled).toBe(true);
    expect(document.getElementById(redeem.getAttribute('aria-describedby')!)?.textContent).toBe(
      'You need 3,000 more points',
    );
    expect((getByRole(root, 'button', 'Redeem Amazon $5') as HTMLButtonElement).disabled).toBe(false);
  });

  it('gives images a srcset from image_urls, lazy loading and an empty alt', async () => {
    await seed({ rewards: [giftCard(2, 'Amazon $5', 500)], balance: 2000 });
    const root = mount();
    await waitFor(() => getByText(root, 'Amazon $5'));
    const img = root.querySelector('img')!;
    expect(img.getAttribute('srcset')).toBe('https://img.example/2-80.png 80w, https://img.example/2-300.png 300w');
    expect(img.getAttribute('sizes')).toBe('56px');
    expect(img.getAttribute('src')).toBe('https://img.example/2.png');
    expect(img.getAttribute('loading')).toBe('lazy');
    expect(img.getAttribute('alt')).toBe('');
  });

  it('has no search, sort or filter with 8 rewards or fewer', async () => {
    await seed({ rewards: many.slice(0, 8), balance: 1000 });
    const root = mount();
    await waitFor(() => getByText(root, 'Amazon $5'));
    expect(queryAllByRole(root, 'searchbox')).toHaveLength(0);
    expect(queryAllByRole(root, 'combobox')).toHaveLength(0);
  });

  it('with more than 8 rewards, searches by name; Clear search brings focus back to the search box', async () => {
    await seed({ rewards: many, balance: 1000 });
    const root = mount();
    const search = (await waitFor(() => getByRole(root, 'searchbox', 'Search rewards'))) as HTMLInputElement;
    await type(search, 'amazon');
    await waitFor(() => expect(rewardOrder(root)).toEqual(['Amazon']));
    // Counted as the list shows them: two rewards, on the one row of their brand.
    expect(getByText(root, '2 matching rewards · 1 brand')).toBeTruthy();

    // The empty result says what was searched, once (not "0 matching rewards" too), and offers the way out.
    await type(search, 'zzz');
    await waitFor(() => getByText(root, 'No rewards match “zzz”.'));
    expect(root.textContent?.split('No rewards match').length).toBe(2);
    expect(root.textContent).not.toContain('0 matching');
    // Said where the count is said, the polite region already there: a screen reader hears it.
    expect(root.querySelector('.list-count[role=status]')?.textContent).toBe('No rewards match “zzz”.');
    const clear = getByRole(root, 'button', 'Clear search');
    clear.focus();
    await click(clear);
    await waitFor(() => expect(rewardOrder(root)).toEqual(BY_AFFORD));
    expect(search.value).toBe('');
    expect(document.activeElement).toBe(search);
  });

  it('renders a long catalogue a page at a time, and a search starts again from the top', async () => {
    const catalogue = Array.from({ length: 75 }, (_, i) => {
      const card = giftCard(1000 + i, `Card ${i + 1}`, 100 + i);
      return { ...card, meta_data: { ...card.meta_data, brand_name: card.name } };
    });
    await seed({ rewards: catalogue, balance: 10_000 });
    const root = mount();
    await waitFor(() => expect(rewardOrder(root)).toHaveLength(REWARDS_PAGE));
    await click(getByRole(root, 'button', 'Show 30 more rewards'));
    await waitFor(() => expect(rewardOrder(root)).toHaveLength(60));
    // Focus goes on to the first row added, by its name: where the panelist reads on.
    const firstAdded = () => root.querySelectorAll('li.reward')[REWARDS_PAGE]?.querySelector('.reward-open');
    await waitFor(() => expect(document.activeElement).toBe(firstAdded()));
    await click(getByRole(root, 'button', 'Show 15 more rewards'));
    await waitFor(() => expect(rewardOrder(root)).toHaveLength(75));
    expect(queryAllByRole(root, 'button', /more rewards/)).toHaveLength(0);
    // The last page: the button is gone, and focus did not go with it.
    await waitFor(() =>
      expect(document.activeElement).toBe(root.querySelectorAll('li.reward')[60]?.querySelector('.reward-open')),
    );

    await type(getByRole(root, 'searchbox', 'Search rewards') as HTMLInputElement, 'card');
    await waitFor(() => expect(rewardOrder(root)).toHaveLength(REWARDS_PAGE));
  });

  it('where the rows are brands, “Show more” counts brands, in English and German', async () => {
    // 40 brands of two values each: 80 rewards, 40 rows.
    const catalogue = Array.from({ length: 80 }, (_, i) => {
      const card = giftCard(2000 + i, `Brand ${Math.floor(i / 2) + 1} ${i % 2 ? 10 : 5} USD`, i % 2 ? 1000 : 500);
      return { ...card, meta_data: { ...card.meta_data, brand_name: `Brand ${Math.floor(i / 2) + 1}` } };
    });
    await seed({ rewards: catalogue, balance: 10_000 });
    const root = mount();
    await waitFor(() => expect(rewardOrder(root)).toHaveLength(REWARDS_PAGE));
    expect(getByRole(root, 'searchbox', 'Search rewards').getAttribute('placeholder')).toBe('Search 80 rewards');
    expect(queryAllByRole(root, 'button', /more rewards/)).toHaveLength(0);
    await click(getByRole(root, 'button', 'Show 10 more brands'));
    await waitFor(() => expect(rewardOrder(root)).toHaveLength(40));
    unmount();
    installI18n('de');
    const german = mount();
    await waitFor(() => getByRole(german, 'button', '10 weitere Marken anzeigen'));
  });

  it('details: a toggle per reward shows sanitized HTML, the value range and countries', async () => {
    const variable = giftCard(2, 'Visa Prepaid', 500, {
      meta_data: {
        reward_type: 'gift card',
        value_type: 'VARIABLE_VALUE',
        min_value: '5.00',
        max_value: '100.00',
        currency_code: 'USD',
        countries: ['US', 'CA'],
        description: '<p>Spend it <b>anywhere</b>.</p>',
        terms: '<p>Terms apply.</p>',
        disclaimer: '<p>Not a bank.</p>',
        redemption_instructions: '<p>Enter the code.</p>',
      },
    });
    await seed({ rewards: [variable], balance: 2000 });
    const root = mount();
    const toggle = await waitFor(() => getByRole(root, 'button', 'Visa Prepaid'));
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    const panel = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(panel.hidden).toBe(true);

    await click(toggle);
    await waitFor(() => expect(inHtmlBoxes(panel, '[data-sanitized]')).toHaveLength(4));
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(panel.hidden).toBe(false);
    for (const heading of ['Description', 'How to redeem', 'Terms', 'Disclaimer']) {
      expect(getByRole(panel, 'heading', heading)).toBeTruthy();
    }
    expect(inHtmlBoxes(panel, '[data-sanitized]')[0]?.textContent).toBe('Spend it anywhere.');
    expect(panel.textContent).toContain('Value: $5.00 – $100.00');
    expect(panel.textContent).toMatch(/Usable in: United States, Canada/);

    await click(toggle);
    expect(panel.hidden).toBe(true);
  });

  it('says so when there are no rewards', async () => {
    await seed({ rewards: [], balance: 100 });
    const root = mount();
    await waitFor(() => getByText(root, 'No rewards are available for your panel right now.'));
  });
});
