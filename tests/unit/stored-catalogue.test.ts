/**
 * The catalogue's stored form (utils/stored-catalogue.ts): its rewards as one JSON text, read back
 * as they were written; the whole object an earlier version stored read as it is; text that is not
 * a list read as no catalogue (the fallback), never as an empty one.
 *
 * Deliberate breakages it was seen to fail on: `decode` returning `{ rewards: [] }` for text that
 * does not parse (the "unknown" test); `put` ignoring the item's form (the background-writer test:
 * the stored value holds objects again).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { put } from '../../entrypoints/background/store/store';
import type { Cached } from '../../utils/cached';
import { catalogueForm, type RewardsData } from '../../utils/stored-catalogue';
import { rewardsItem } from '../../utils/storage-items';
import type { Reward } from '../../utils/types';
import { rid } from './test-ids';

beforeEach(() => fakeBrowser.reset());

const reward = (id: number, extra: Partial<Reward> = {}): Reward => ({
  id: rid(id),
  name: `Reward ${id}`,
  cost: 5,
  cost_currency: 'USD',
  type: 'giftcard_aggregator',
  image_url: 'https://img.example/a.png',
  meta_data: { brand_name: 'Brand', countries: ['US'], image_urls: { '80w-326ppi': 'https://img.example/80.png' } },
  reward_point_cost: 500,
  ...extra,
});

const cache: Cached<RewardsData> = {
  fetchedAt: 1_700_000_000_000,
  data: {
    balance: { points: 1200, source: 'rewards' },
    rewards: [
      reward(1),
      reward(2, { reward_point_cost: null, costRefused: true, costReason: 'missing' }),
      reward(3, { cost: null, costRefused: true }),
    ],
  },
};

const raw = async () => (await browser.storage.local.get(rewardsItem.key))[rewardsItem.key] as Record<string, unknown>;

describe('the catalogue as stored', () => {
  it('keeps the rewards as one text beside the balance and fetchedAt, and reads them back as written', async () => {
    await rewardsItem.setValue(cache);
    const stored = await raw();
    expect(stored).toEqual({
      fetchedAt: cache.fetchedAt,
      data: { balance: cache.data.balance, rewardsJson: expect.any(String) },
    });
    expect(await rewardsItem.getValue()).toEqual(cache);
    // Unknown stays unknown: a quarantined reward comes back quarantined, its cost still unknown.
    const [, missing, refused] = (await rewardsItem.getValue())!.data.rewards;
    expect(missing).toMatchObject({ reward_point_cost: null, costRefused: true, costReason: 'missing' });
    expect(refused).toMatchObject({ cost: null, costRefused: true });
  });

  it('is what the background writer stores, and what a watcher is told', async () => {
    const seen: Array<Cached<RewardsData> | null> = [];
    const stop = rewardsItem.watch((value) => seen.push(value));
    const { key, value } = put(rewardsItem, cache);
    await browser.storage.local.set({ [key]: value });
    stop();
    expect(typeof ((await raw()).data as { rewardsJson: unknown }).rewardsJson).toBe('string');
    expect(seen).toEqual([cache]);
    expect(put(rewardsItem, null)).toEqual({ key: rewardsItem.key, value: null });
  });

  it('keeps every field a page reads as it was', async () => {
    const meta = {
      brand_name: 'Brand',
      countries: ['US', 'CA'],
      min_value: '5.00',
      max_value: '50.00',
      value_type: 'VARIABLE_VALUE',
      reward_type: 'gift card',
      currency_code: 'USD',
      image_url: 'https://img.example/m.png',
      image_urls: { '80w-326ppi': 'https://img.example/80.png' },
    };
    const full = reward(9, { meta_data: meta });
    await rewardsItem.setValue({ ...cache, data: { ...cache.data, rewards: [full] } });
    expect((await rewardsItem.getValue())!.data.rewards).toEqual([full]);
  });

  it('reads the whole object an earlier version stored as it is', async () => {
    await browser.storage.local.set({ [rewardsItem.key]: cache });
    expect(await rewardsItem.getValue()).toEqual(cache);
    expect(rewardsItem.fromStored(cache)).toEqual(cache);
  });

  it('reads text that is not a list, or no data at all, as no catalogue: unknown, not empty', () => {
    const stored = (rewardsJson: unknown) => ({ fetchedAt: 1, data: { balance: cache.data.balance, rewardsJson } });
    expect(rewardsItem.fromStored(stored('{"not":"a list"}'))).toBeNull();
    expect(rewardsItem.fromStored(stored('[{"id":'))).toBeNull();
    expect(rewardsItem.fromStored(stored('[]'))).toEqual({
      fetchedAt: 1,
      data: { balance: cache.data.balance, rewards: [] },
    });
    expect(rewardsItem.fromStored({ fetchedAt: 1 })).toBeNull();
    expect(rewardsItem.fromStored('text')).toBeNull();
    expect(catalogueForm.decode(undefined)).toBeUndefined();
  });
});
