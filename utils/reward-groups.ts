import { formatMoney } from './format';
import { humanise } from './humanise';
import { t } from './i18n';
import { compareRewards, kindLabel, rewardKind } from './reward-view';
import type { Reward } from './types';
import { compareIds, type RewardId } from './ids';

/**
 * A big catalogue lists one brand's denominations as separate rewards: the popup shows a
 * brand once, with its values as choices. Pure, shared by the background (the popup view's first
 * rows) and the popup (the whole catalogue after a search, a sort or "Show more").
 */
export interface RewardGroup {
  key: string;
  /** The brand (a row of one reward shows that reward's name). */
  title: string;
  /** Cheapest first (a cost the panel does not give last). */
  rewards: Reward[];
}

/** An amount with its currency, as reward names carry it: "$5", "50 €", "£100", "10 USD", "5.00". */
const AMOUNT = /(?:[$€£¥₹]\s?\d[\d.,]*|\d[\d.,]*\s?(?:[$€£¥₹]|[A-Z]{3}\b))/gu;

/**
 * The brand a reward belongs to: the provider's `brand_name` where it gives one, else the name
 * without its amount, per type ("PayWave $10 Transfer" and "PayWave 50 € Transfer" are one brand).
 */
export function brandOf(reward: Reward): { key: string; title: string } {
  const brand = reward.meta_data?.brand_name?.trim();
  if (brand) return { key: `b:${brand.toLowerCase()}`, title: brand };
  const bare = reward.name.replace(AMOUNT, ' ').replace(/\s+/g, ' ').trim();
  return { key: `n:${reward.type}:${(bare || reward.name).toLowerCase()}`, title: bare || reward.name };
}

const cheaper = (a: Reward, b: Reward) =>
  (a.reward_point_cost ?? Infinity) - (b.reward_point_cost ?? Infinity) ||
  (a.cost ?? Infinity) - (b.cost ?? Infinity) ||
  compareIds(a.id, b.id);

/** The catalogue by brand, each brand where its first reward is. */
export function groupRewards(rewards: readonly Reward[]): RewardGroup[] {
  const groups = new Map<string, RewardGroup>();
  for (const reward of rewards) {
    const { key, title } = brandOf(reward);
    const group = groups.get(key);
    if (group) group.rewards.push(reward);
    else groups.set(key, { key, title, rewards: [reward] });
  }
  const out = [...groups.values()];
  for (const group of out) group.rewards.sort(cheaper);
  return out;
}

export const SORTS = ['afford', 'low', 'high', 'name'] as const;
export type SortKey = (typeof SORTS)[number];

const points = (r: Reward | undefined, none: number) => r?.reward_point_cost ?? none;

/**
 * - `afford`: what the panelist can afford first, then the brands they are closest to (by each
 *   brand's cheapest reward), then the cheapest;
 * - `low` / `high`: by each brand's cheapest / dearest reward;
 * - `name`: by brand.
 */
export function sortGroups(groups: readonly RewardGroup[], balance: number | null, sort: SortKey): RewardGroup[] {
  const title = (a: RewardGroup, b: RewardGroup) => a.title.localeCompare(b.title);
  const compare: Record<SortKey, (a: RewardGroup, b: RewardGroup) => number> = {
    afford: (a, b) => compareRewards(a.rewards[0]!, b.rewards[0]!, balance) || title(a, b),
    low: (a, b) => points(a.rewards[0], Infinity) - points(b.rewards[0], Infinity) || title(a, b),
    high: (a, b) => points(b.rewards.at(-1), -Infinity) - points(a.rewards.at(-1), -Infinity) || title(a, b),
    name: (a, b) => title(a, b) || points(a.rewards[0], Infinity) - points(b.rewards[0], Infinity),
  };
  return [...groups].sort((a, b) => {
    const order = compare[sort](a, b);
    return Number.isNaN(order) ? 0 : order;
  });
}

/** The kind a type filter chooses by: gift cards, wallets, or another type by its own name. */
export function kindKey(reward: Reward): string {
  const kind = rewardKind(reward);
  return kind === 'other' ? `type:${reward.type}` : kind;
}

/** The kinds a catalogue holds, most rewards first: what the type filter offers. */
export function kindCounts(rewards: readonly Reward[]): Array<{ key: string; count: number }> {
  const counts = new Map<string, number>();
  for (const reward of rewards) counts.set(kindKey(reward), (counts.get(kindKey(reward)) ?? 0) + 1);
  return [...counts]
    .map(([key, count]) => ({ key, count }))
    .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
}

/** A kind's name as the type filter offers it: "Gift cards", "Wallet payouts", another type in words. */
export function kindName(key: string): string {
  if (key === 'gift') return t('kindGiftCards');
  if (key === 'wallet') return t('kindWallets');
  return humanise(key.replace(/^type:/, ''));
}

/** Rewards whose name, brand, kind or currency holds every word of `query`, of the kind `kind` ('' for all). */
export function filterRewards(rewards: readonly Reward[], query: string, kind: string): Reward[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return rewards.filter((r) => {
    if (kind && kindKey(r) !== kind) return false;
    if (words.length === 0) return true;
    const haystack = [r.name, r.meta_data?.brand_name, kindLabel(r), r.cost_currency].join(' ').toLowerCase();
    return words.every((w) => haystack.includes(w));
  });
}

/** What makes two values of a brand one to the panelist: the value, its currency and its cost in points. */
export const valueKey = (reward: Reward) => `${reward.cost}|${reward.cost_currency}|${reward.reward_point_cost ?? ''}`;

/** Where a reward can be used, in the provider's order: ISO codes, upper case, each once. */
const countriesOf = (reward: Reward) => [
  ...new Set((reward.meta_data?.countries ?? []).map((c) => c.trim().toUpperCase()).filter(Boolean)),
];

/** What makes two rewards one listing to the panelist, which a brand's picker shows once: brand, value, currency, cost and countries. */
export const listingKey = (reward: Reward) =>
  `${brandOf(reward).key}#${valueKey(reward)}#${countriesOf(reward).sort().join(',')}`;

/** Each catalogue's listings by key, and each reward's key: made once per catalogue, not at every render. */
const listingIndexes = new WeakMap<
  readonly Reward[],
  { keysOf: Map<RewardId, string[]>; byKey: Map<string, RewardId[]> }
>();

function listingIndex(rewards: readonly Reward[]) {
  let index = listingIndexes.get(rewards);
  if (!index) {
    index = { keysOf: new Map(), byKey: new Map() };
    for (const reward of rewards) {
      const key = listingKey(reward);
      // An id a catalogue lists twice (at two costs) has two listings, each with its own alike ones.
      index.keysOf.set(reward.id, [...(index.keysOf.get(reward.id) ?? []), key]);
      index.byKey.set(key, [...(index.byKey.get(key) ?? []), reward.id]);
    }
    listingIndexes.set(rewards, index);
  }
  return index;
}

/**
 * `ids` and every reward of `lists` listed alike to one of them. A picker shows alike listings as
 * one choice, whichever stands for them: a Redeem held for one of them is held for the one shown.
 */
export function withAlike(ids: readonly RewardId[], ...lists: ReadonlyArray<readonly Reward[]>): RewardId[] {
  if (ids.length === 0) return [];
  const indexes = lists.map(listingIndex);
  const keys = new Set(ids.flatMap((id) => indexes.flatMap(({ keysOf }) => keysOf.get(id) ?? [])));
  const alike = indexes.flatMap(({ byKey }) => [...keys].flatMap((key) => byKey.get(key) ?? []));
  return [...new Set([...ids, ...alike])];
}

/** One value in a brand's picker: the reward Redeem acts on, and where it is usable when another value differs only by that. */
export interface ValueChoice {
  reward: Reward;
  /** The countries (ISO codes) when the brand has the same value for other countries too, else null. */
  where: string[] | null;
}

/**
 * A brand's values as its picker offers them (not "$5.00 · 500 points" three times, differing
 * only by country): rewards alike in value, currency, cost and countries are one choice (the one in
 * `prefer`, the goal or the chosen one, stands for them, else the first); values alike but for the
 * countries stay apart, each with its countries. In the brand's order, cheapest first.
 */
export function valueChoices(rewards: readonly Reward[], prefer: ReadonlyArray<RewardId | null> = []): ValueChoice[] {
  const standing = new Map<string, Reward>();
  for (const reward of rewards) {
    const key = listingKey(reward);
    const had = standing.get(key);
    if (!had || (prefer.includes(reward.id) && !prefer.includes(had.id))) standing.set(key, reward);
  }
  // Each where the first of its variants is, whichever stands for them.
  const choices = [...standing.values()];
  const alike = new Map<string, number>();
  for (const reward of choices) alike.set(valueKey(reward), (alike.get(valueKey(reward)) ?? 0) + 1);
  return choices.map((reward) => ({
    reward,
    where: (alike.get(valueKey(reward)) ?? 0) > 1 ? countriesOf(reward) : null,
  }));
}

/** The choice a brand's tile starts on: the panelist's goal where the brand holds it, else its cheapest reward. */
export function defaultChoice(group: RewardGroup, goalId: RewardId | null): Reward {
  return group.rewards.find((r) => r.id === goalId) ?? group.rewards[0]!;
}

/** Each catalogue's rewards by brand key, made once per catalogue (a header re-renders every half minute). */
const byBrand = new WeakMap<readonly Reward[], Map<string, Reward[]>>();

function brandsOf(catalogue: readonly Reward[]): Map<string, Reward[]> {
  let brands = byBrand.get(catalogue);
  if (!brands) {
    brands = new Map();
    for (const reward of catalogue) {
      const key = brandOf(reward).key;
      brands.set(key, [...(brands.get(key) ?? []), reward]);
    }
    byBrand.set(catalogue, brands);
  }
  return brands;
}

/**
 * A reward named as the list shows it, for the words above the list (the header's next step, the
 * goal): where its brand's row offers several values, the brand and its value as the row's picker
 * writes it ("Cedar Bakery €25.00", not the panel's "Cedar Bakery 25 EUR Gift Card" over a row
 * that reads "Cedar Bakery" and "€25.00"); else its own name, as its row shows it. `catalogue` is
 * what the list has (the popup view's first rows hold the next reward's brand whole).
 */
export function listedName(reward: Reward, catalogue: readonly Reward[]): string {
  const { key, title } = brandOf(reward);
  const values = brandsOf(catalogue).get(key) ?? [reward];
  const money = formatMoney(reward.cost, reward.cost_currency);
  return valueChoices(values).length > 1 && money ? `${title} ${money}` : reward.name;
}
