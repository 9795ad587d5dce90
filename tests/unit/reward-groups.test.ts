/** A big catalogue by brand, its values as choices, sorted and filtered as the panelist chooses. */
import { describe, expect, it } from 'vitest';
import {
  brandOf,
  defaultChoice,
  filterRewards,
  groupRewards,
  kindCounts,
  kindName,
  sortGroups,
  valueChoices,
  withAlike,
} from '../../utils/reward-groups';
import type { Reward } from '../../utils/types';
import { installI18n } from './i18n-setup';
import { giftCard, wallet } from './popup-fixtures';
import { rid } from './test-ids';

const brand = (name: string, id: number, points: number, brandName: string): Reward => {
  const reward = giftCard(id, name, points);
  return { ...reward, meta_data: { ...reward.meta_data, brand_name: brandName } };
};
const cedar5 = brand('Cedar Bakery 5 USD Gift Card', 1, 500, 'Cedar Bakery');
const cedar25 = brand('Cedar Bakery 25 USD Gift Card', 2, 2500, 'Cedar Bakery');
const cedar10 = brand('Cedar Bakery 10 EUR Gift Card', 3, 1100, 'Cedar Bakery');
const atlas = brand('Atlas Travel £100 Gift Card', 4, 11_000, 'Atlas Travel');
const pay10 = wallet(5, 'PayWave $10 Transfer', 1000);
const pay50 = wallet(6, 'PayWave 50 € Transfer', 5400);
const other = { ...giftCard(7, 'Charity donation', 300), type: 'donation', meta_data: {} };
const catalogue = [cedar25, atlas, pay50, cedar5, other, pay10, cedar10];
const titles = (groups: { title: string }[]) => groups.map((g) => g.title);

describe('brands', () => {
  it('are the provider’s brand name, else the name without its amount, per type', () => {
    expect(brandOf(cedar5)).toEqual({ key: 'b:cedar bakery', title: 'Cedar Bakery' });
    expect(brandOf(pay10).title).toBe('PayWave Transfer');
    expect(brandOf(pay50).key).toBe(brandOf(pay10).key);
    expect(brandOf({ ...pay10, type: 'giftcard' }).key).not.toBe(brandOf(pay10).key);
    // A name that is all amount keeps itself.
    expect(brandOf({ ...wallet(8, '$10', 1000) }).title).toBe('$10');
  });

  it('group one brand’s rewards in one row, cheapest first, in the order brands first appear', () => {
    const groups = groupRewards(catalogue);
    expect(titles(groups)).toEqual(['Cedar Bakery', 'Atlas Travel', 'PayWave Transfer', 'Charity donation']);
    expect(groups[0]!.rewards.map((r) => r.id)).toEqual(['1', '3', '2']);
    expect(groups[2]!.rewards.map((r) => r.id)).toEqual(['5', '6']);
  });
});

describe('sorting', () => {
  const groups = groupRewards(catalogue);

  it('"I can afford" first: affordable brands, then the closest, by each brand’s cheapest reward', () => {
    expect(titles(sortGroups(groups, 1000, 'afford'))).toEqual([
      'Charity donation',
      'Cedar Bakery',
      'PayWave Transfer',
      'Atlas Travel',
    ]);
  });

  it('by cost, lowest or highest first, and by name', () => {
    expect(titles(sortGroups(groups, 1000, 'low'))).toEqual([
      'Charity donation',
      'Cedar Bakery',
      'PayWave Transfer',
      'Atlas Travel',
    ]);
    expect(titles(sortGroups(groups, 1000, 'high'))).toEqual([
      'Atlas Travel',
      'PayWave Transfer',
      'Cedar Bakery',
      'Charity donation',
    ]);
    expect(titles(sortGroups(groups, 1000, 'name'))).toEqual([
      'Atlas Travel',
      'Cedar Bakery',
      'Charity donation',
      'PayWave Transfer',
    ]);
  });

  it('does not change its input', () => {
    const copy = [...groups];
    sortGroups(groups, 0, 'high');
    expect(groups).toEqual(copy);
  });
});

describe('filtering', () => {
  it('by every word of a search, in name, brand, kind or currency', () => {
    expect(filterRewards(catalogue, 'cedar eur', '').map((r) => r.id)).toEqual(['3']);
    expect(filterRewards(catalogue, 'WALLET', '').map((r) => r.id)).toEqual(['6', '5']);
  });

  it('by kind: gift cards, wallets, or another type by its own name', () => {
    expect(filterRewards(catalogue, '', 'wallet').map((r) => r.id)).toEqual(['6', '5']);
    expect(filterRewards(catalogue, '', 'type:donation').map((r) => r.id)).toEqual(['7']);
    expect(filterRewards(catalogue, 'cedar', 'wallet')).toEqual([]);
  });

  it('offers the kinds the catalogue holds, most rewards first, named in the panelist’s language', () => {
    expect(kindCounts(catalogue)).toEqual([
      { key: 'gift', count: 4 },
      { key: 'wallet', count: 2 },
      { key: 'type:donation', count: 1 },
    ]);
    expect(kindCounts(catalogue).map((k) => kindName(k.key))).toEqual(['Gift cards', 'Wallet payouts', 'Donation']);
    installI18n('de');
    expect(kindCounts(catalogue).map((k) => kindName(k.key))).toEqual([
      'Gutscheine',
      'Auszahlungen per Bezahldienst',
      'Donation',
    ]);
  });
});

describe('the value a brand’s row starts on', () => {
  it('is the goal where the brand holds it, else its cheapest', () => {
    const [cedar] = groupRewards(catalogue);
    expect(defaultChoice(cedar!, null).id).toBe('1');
    expect(defaultChoice(cedar!, rid(2)).id).toBe('2');
    expect(defaultChoice(cedar!, rid(99)).id).toBe('1');
  });
});

describe('a brand’s values as its picker offers them', () => {
  const variant = (id: number, countries: string[], points = 500) => ({
    ...brand(`Cedar Bakery ${points / 100} USD`, id, points, 'Cedar Bakery'),
    meta_data: { ...cedar5.meta_data, countries },
  });

  it('alike in value, cost and countries: once; alike but for the countries: each with its own, in the provider’s order', () => {
    const rewards = [variant(11, ['US']), variant(12, ['US', 'CA']), variant(13, ['us ']), variant(14, ['US'], 1000)];
    const choices = valueChoices(rewards);
    expect(choices.map((c) => [c.reward.id, c.where])).toEqual([
      ['11', ['US']],
      ['12', ['US', 'CA']],
      ['14', null],
    ]);
  });

  it('the goal or the chosen one stands for its alike variants, where the first of them was', () => {
    const rewards = [variant(11, ['US']), variant(12, ['CA']), variant(13, ['US'])];
    expect(valueChoices(rewards, [rid(13)]).map((c) => c.reward.id)).toEqual(['13', '12']);
    expect(valueChoices(rewards, [null]).map((c) => c.reward.id)).toEqual(['11', '12']);
  });

  it('a hold on one listing holds every listing alike to it, whichever the picker shows, and no other', () => {
    const rewards = [
      variant(11, ['US']),
      variant(12, ['us']),
      variant(13, ['CA']),
      variant(14, ['US'], 1000),
      { ...variant(15, ['US']), meta_data: { ...variant(15, ['US']).meta_data, brand_name: 'Birch Bakery' } },
    ];
    // 11 and 12 are one choice in the picker; 13 (other countries), 14 (another cost) and 15
    // (another brand) are not.
    expect(withAlike([rid(12)], rewards)).toEqual(['12', '11']);
    expect(withAlike([rid(11)], rewards)).toEqual(['11', '12']);
    expect(withAlike([rid(13), rid(14)], rewards)).toEqual(['13', '14']);
    // An id listed twice at two costs: the listings alike to either are held with it.
    const twice = [...rewards, variant(11, ['CA'], 2000)];
    expect(withAlike([rid(11)], twice)).toEqual(['11', '12']);
    // A held reward the catalogue does not list stays held; nothing held holds nothing.
    expect(withAlike([rid(99)], rewards)).toEqual(['99']);
    expect(withAlike([], rewards)).toEqual([]);
  });

  it('values alike in money but not in points, or in points but not in money, stay apart and unlabelled', () => {
    const rewards = [
      variant(11, ['US']),
      { ...variant(12, ['CA']), reward_point_cost: 550 },
      { ...variant(13, ['GB']), cost_currency: 'GBP' },
    ];
    expect(valueChoices(rewards).map((c) => c.where)).toEqual([null, null, null]);
  });
});
