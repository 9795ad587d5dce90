import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { StaleSession, switchSession } from '../../entrypoints/background/store/store';
import {
  ensurePopupView,
  historyWriter,
  latestPart,
  profilePart,
  profileWriter,
  rewardsPart,
  rewardsWriter,
  VIEW_ROWS,
  VIEW_VALUES,
} from '../../entrypoints/background/popup-view';
import { splitHtml, withHtml } from '../../utils/reward-html';
import {
  historyItem,
  popupViewItem,
  profileItem,
  rewardHtmlItem,
  rewardsItem,
  SESSION_ITEMS,
  sessionItem,
} from '../../utils/storage-items';
import type { Reward } from '../../utils/types';
import {
  click,
  CONNECTED,
  getByRole,
  getByText,
  giftCard,
  queryAllByRole,
  redemption,
  seed,
  waitFor,
} from './popup-fixtures';
import { background } from './fake-background';
import { inHtmlBoxes } from './sanitize-stub';

vi.mock('../../utils/messages', () => import('./fake-background').then((m) => m.fakeMessages));
// DOMPurify cannot run on happy-dom (see popup-sanitize.test.tsx); mark what passed through it.
vi.mock('../../utils/sanitize', () => import('./sanitize-stub'));

beforeEach(() => {
  fakeBrowser.reset();
  background.calls.length = 0;
});

const withTerms = (id: number, name: string, points: number, brand = name): Reward => {
  const reward = giftCard(id, name, points);
  return {
    ...reward,
    meta_data: { ...reward.meta_data, brand_name: brand, terms: '<p>Long terms</p>', description: '<p>About it</p>' },
  };
};
// 40 rewards: the first 25 affordable with 2,500 points, then ones further and further away.
const catalogue = Array.from({ length: 40 }, (_, i) =>
  withTerms(i + 1, `Card ${String(i + 1).padStart(2, '0')}`, 100 * (i + 1)),
);
const cache = {
  data: { rewards: catalogue, balance: { points: 2_500, source: 'rewards' as const } },
  fetchedAt: 1_000,
};

const SID = CONNECTED.id;

describe('popup view (background)', () => {
  beforeEach(() => sessionItem.setValue(CONNECTED));

  it('holds the first rows in the list order without their HTML, the catalogue size, and the next reward of the whole catalogue', () => {
    const part = rewardsPart(cache)!;
    expect(part.total).toBe(40);
    expect(part.first).toHaveLength(VIEW_ROWS);
    // Affordable first, the cheapest first among them.
    expect(part.first.map((r) => r.name)).toEqual(catalogue.slice(0, VIEW_ROWS).map((r) => r.name));
    expect(part.first.every((r) => r.meta_data.terms === undefined && r.meta_data.description === undefined)).toBe(
      true,
    );
    expect(part.first[0]!.meta_data.brand_name).toBe('Card 01');
    expect(part.brands).toBe(40);
    expect(part.kinds).toEqual([{ key: 'gift', count: 40 }]);
    expect(part.next?.name).toBe('Card 26');
    expect(part.balance.points).toBe(2_500);
    expect(part.fetchedAt).toBe(1_000);
    expect(rewardsPart(null)).toBeNull();
  });

  it('groups a brand’s values in one row, and holds a few of its other values without their images', () => {
    const big = Array.from({ length: 30 }, (_, i) => withTerms(100 + i, `Big ${i + 1} USD`, 100 * (i + 1), 'Big'));
    const part = rewardsPart({ ...cache, data: { ...cache.data, rewards: [...big, ...catalogue.slice(0, 15)] } })!;
    expect(part.total).toBe(45);
    expect(part.brands).toBe(16);
    const ofBig = part.first.filter((r) => r.meta_data.brand_name === 'Big');
    // The header names Big 26, 100 points away: its brand's picker holds every value up to it, so it
    // never stops short of what the header names.
    expect(part.next?.id).toBe(big[25]!.id);
    expect(ofBig.map((r) => r.id)).toEqual(big.slice(0, 26).map((r) => r.id));
    // Where the next reward is no further than the brand's first values: those few.
    const poor = rewardsPart({
      ...cache,
      data: { balance: { points: 150, source: 'rewards' }, rewards: [...big, ...catalogue.slice(0, 15)] },
    })!;
    expect(poor.next?.id).toBe(big[1]!.id);
    expect(poor.first.filter((r) => r.meta_data.brand_name === 'Big').map((r) => r.id)).toEqual(
      big.slice(0, VIEW_VALUES + 1).map((r) => r.id),
    );
    expect(ofBig[0]!.meta_data.image_urls).toBeDefined();
    expect(ofBig.slice(1).every((r) => r.meta_data.image_urls === undefined && r.meta_data.brand_name === 'Big')).toBe(
      true,
    );
    // The first rows are brands: Big's cheapest affords, so it comes first, with the cheapest cards.
    expect(new Set(part.first.map((r) => r.meta_data.brand_name)).size).toBe(VIEW_ROWS);
  });

  it('counts a brand’s values as its picker shows them: listings alike but for the spelling of their countries count once', () => {
    const at = (r: Reward, countries: string[]): Reward => ({ ...r, meta_data: { ...r.meta_data, countries } });
    const big = Array.from({ length: 10 }, (_, i) =>
      at(withTerms(100 + i, `Big ${i + 1} USD`, 1000 * (i + 1), 'Big'), ['US']),
    );
    // The same first value again, its country spelled " us": one choice in the picker (the lower id first).
    const twin = at(withTerms(99, 'Big 1 USD', 1000, 'Big'), [' us']);
    const poor = rewardsPart({
      ...cache,
      data: { balance: { points: 0, source: 'rewards' }, rewards: [big[0]!, twin, ...big.slice(1)] },
    })!;
    expect(poor.first.filter((r) => r.meta_data.brand_name === 'Big').map((r) => r.id)).toEqual(
      [twin, big[0]!, ...big.slice(1, VIEW_VALUES + 1)].map((r) => r.id),
    );
  });

  it('the latest redemption is the newest one in the history', () => {
    const history = [
      redemption(1, catalogue[0]!, '2026-01-01T10:00:00'),
      redemption(2, catalogue[1]!, '2026-03-01T10:00:00'),
    ];
    expect(latestPart({ data: history, fetchedAt: 1 })?.id).toBe('2');
    expect(latestPart(null)).toBeNull();
  });

  it('holds the refunds of the whole history, so the popup’s earning figure leaves the points given back out', async () => {
    const refunded = redemption(8, catalogue[3]!, '2026-02-01T10:00:00', {
      failed: true,
      refunded: true,
      updated_at: '2026-02-03T09:30:00',
    });
    await historyWriter.store(SID, {
      data: [redemption(9, catalogue[2]!, '2026-02-05T10:00:00'), refunded],
      fetchedAt: 2,
    });
    expect((await popupViewItem.getValue())?.returns).toEqual([
      { at: Date.UTC(2026, 1, 3, 9, 30), points: catalogue[3]!.reward_point_cost },
    ]);
  });

  it('is written with each cache in one storage write, refused for a session that ended', async () => {
    const changes: string[][] = [];
    fakeBrowser.storage.onChanged.addListener((c) => void changes.push(Object.keys(c).sort()));
    await rewardsWriter.store(SID, cache);
    expect((await popupViewItem.getValue())?.rewards?.total).toBe(40);
    await historyWriter.store(SID, { data: [redemption(7, catalogue[2]!, '2026-02-01T10:00:00')], fetchedAt: 2 });
    const view = await popupViewItem.getValue();
    expect(view?.latest?.id).toBe('7');
    // Each part keeps the other's.
    expect(view?.rewards?.total).toBe(40);
    expect(changes).toEqual([
      ['cache:reward-html', 'cache:rewards', 'view:popup'],
      ['cache:history', 'cache:history:0', 'view:popup'],
    ]);
    // Disconnecting empties the session's data, the view with it, in the write that ends it.
    expect(SESSION_ITEMS).toContain(popupViewItem);
    await switchSession([], () => ({ next: null }));
    expect(await popupViewItem.getValue()).toBeNull();
    expect(await rewardsItem.getValue()).toBeNull();
    // A late answer of the ended session: neither the cache nor the view is written.
    await expect(rewardsWriter.store(SID, cache)).rejects.toBeInstanceOf(StaleSession);
    expect(await rewardsItem.getValue()).toBeNull();
    expect(await popupViewItem.getValue()).toBeNull();
  });

  it('keeps the catalogue without its HTML, each distinct text once in its own item', async () => {
    await rewardsWriter.store(SID, cache);
    const stored = (await rewardsItem.getValue())!.data.rewards;
    expect(stored).toHaveLength(40);
    expect(
      stored.every((r, i) => r.meta_data.terms === undefined && r.meta_data.brand_name === catalogue[i]!.name),
    ).toBe(true);
    const html = await rewardHtmlItem.getValue();
    // 40 rewards share one text of terms and one of description.
    expect(html?.texts).toEqual(['<p>About it</p>', '<p>Long terms</p>']);
    expect(withHtml(stored[7]!, html)).toEqual(catalogue[7]);
    expect(SESSION_ITEMS).toContain(rewardHtmlItem);
  });

  it('a reward that carries its own HTML keeps it; one the texts do not know stays as it is', () => {
    const { rewards, html } = splitHtml([catalogue[0]!, giftCard(99, 'Plain', 100)]);
    expect(withHtml(catalogue[1]!, html)).toBe(catalogue[1]);
    expect(withHtml(rewards[1]!, html)).toBe(rewards[1]);
    expect(withHtml(rewards[0]!, null)).toBe(rewards[0]);
  });

  it('at worker start, makes the view of caches written before there was one, and only then', async () => {
    await fakeBrowser.storage.local.set({
      credentials: { session: SID, baseUrl: CONNECTED.baseUrl, token: 'token-abcd' },
    });
    await ensurePopupView();
    expect(await popupViewItem.getValue()).toBeNull();
    await rewardsItem.setValue(cache);
    await ensurePopupView();
    expect((await popupViewItem.getValue())?.rewards?.first).toHaveLength(VIEW_ROWS);
    expect((await popupViewItem.getValue())?.latest).toBeNull();
  });

  it('counts the open profile questions with the profile cache, in the same write; none before the profile was read', async () => {
    const text = (id: number, name: string, writable = true) => ({
      id,
      name,
      text: name,
      uuid: `u${id}`,
      type: 'text',
      writable,
      options: [],
    });
    const profile = {
      data: {
        definitions: [text(1, 'A'), text(2, 'B'), text(3, 'C'), text(4, 'R', false)],
        values: { A: 'x', C: ' ', R: 'y' },
      },
      fetchedAt: 5,
    };
    expect(profilePart(null)).toBeNull();
    expect(profilePart(profile)).toEqual({ open: 2, total: 3, first: 'B', fetchedAt: 5 });
    const changes: string[][] = [];
    fakeBrowser.storage.onChanged.addListener((c) => void changes.push(Object.keys(c).sort()));
    await rewardsWriter.store(SID, cache);
    expect((await popupViewItem.getValue())?.profile).toBeNull();
    await profileWriter.store(SID, profile);
    expect(changes.at(-1)).toEqual(['cache:profile', 'view:popup']);
    expect((await popupViewItem.getValue())?.profile).toEqual({ open: 2, total: 3, first: 'B', fetchedAt: 5 });
    expect((await popupViewItem.getValue())?.rewards?.total).toBe(40);
  });

  it('at worker start, groups the first rows of a view written before brands', async () => {
    const { brands: _brands, kinds: _kinds, ...ungrouped } = rewardsPart(cache)!;
    await fakeBrowser.storage.local.set({
      credentials: { session: SID, baseUrl: CONNECTED.baseUrl, token: 'token-abcd' },
    });
    await popupViewItem.setValue({ rewards: ungrouped, latest: null, profile: null });
    await rewardsItem.setValue(cache);
    await ensurePopupView();
    expect(await popupViewItem.getValue()).toEqual({ rewards: rewardsPart(cache), latest: null, profile: null });
  });

  it('at worker start, adds the profile part to a view written before there was one', async () => {
    const profile = {
      data: {
        definitions: [{ id: 1, name: 'A', text: 'A', uuid: 'u', type: 'text', writable: true, options: [] }],
        values: {},
      },
      fetchedAt: 5,
    };
    await fakeBrowser.storage.local.set({
      credentials: { session: SID, baseUrl: CONNECTED.baseUrl, token: 'token-abcd' },
    });
    await popupViewItem.setValue({ rewards: rewardsPart(cache), latest: null });
    await profileItem.setValue(profile);
    await ensurePopupView();
    expect(await popupViewItem.getValue()).toEqual({
      rewards: rewardsPart(cache),
      latest: null,
      profile: { open: 1, total: 1, first: 'A', fetchedAt: 5 },
    });
  });
});

describe('popup view (popup)', () => {
  // Each test opens a popup of its own, its modules loaded anew, as each opening of the popup is a
  // page of its own: what a page keeps in its modules (what preload read, utils/storage-item.ts)
  // lasts as long as the page, and would otherwise stand in for storage in the tests after it.
  let mount: () => HTMLElement;
  let unmount: () => void;
  beforeEach(async () => {
    vi.resetModules();
    ({ mount, unmount } = await import('./popup-fixtures'));
  });
  afterEach(() => unmount());

  it('the first frame comes from the view alone; the catalogue is read only for more rows', async () => {
    await seed({ rewards: catalogue, balance: 2_500 });
    await popupViewItem.setValue({
      rewards: rewardsPart(cache),
      latest: redemption(9, catalogue[30]!, '2026-02-01T10:00:00'),
    });
    // The history is not read when the view has the latest redemption.
    await historyItem.setValue({ data: [redemption(8, catalogue[38]!, '2026-03-01T10:00:00')], fetchedAt: 2 });
    const reads: string[] = [];
    const get = fakeBrowser.storage.local.get.bind(fakeBrowser.storage.local);
    vi.spyOn(fakeBrowser.storage.local, 'get').mockImplementation((keys) => (reads.push(String(keys)), get(keys)));
    const root = mount();
    await waitFor(() => getByText(root, 'Card 31'));
    expect(queryAllByRole(root, 'listitem')).toHaveLength(VIEW_ROWS);
    expect(reads.some((k) => k.includes('cache:rewards'))).toBe(false);
    // "Show more" reads the whole catalogue and pages through it.
    await click(getByRole(root, 'button', /Show 30 more/));
    await waitFor(() => expect(queryAllByRole(root, 'listitem').length).toBe(40));
    getByRole(root, 'button', 'Card 40');
    expect(reads.some((k) => k.includes('cache:rewards'))).toBe(true);
  });
  it('the header’s next reward is a value of its brand’s picker before the catalogue is read: one source', async () => {
    // The Cedar Bakery: values from 5 to 30, the header naming the 26th, beyond a few values.
    const cedar = Array.from({ length: 30 }, (_, i) =>
      withTerms(300 + i, `Cedar Bakery ${i + 1} EUR`, 100 * (i + 1), 'Cedar Bakery'),
    );
    const big = { ...cache, data: { ...cache.data, rewards: [...cedar, ...catalogue.slice(0, 15)] } };
    await seed({});
    await popupViewItem.setValue({ rewards: rewardsPart(big), latest: null });
    const root = mount();
    // Named as the row's picker names that value, not by the panel's name for it.
    await waitFor(() => expect(root.querySelector('.hdr-next')?.textContent).toBe('100 points to Cedar Bakery $26.00'));
    // No catalogue is stored (seed({})): the picker has only what the view holds, and that holds it.
    const value = getByRole(root, 'combobox', 'Value of Cedar Bakery') as HTMLSelectElement;
    expect([...value.options].map((o) => o.value)).toContain('325');
    expect(value.querySelector('option[value="325"]')?.textContent).toBe('$26.00 · 2,600 points');
  });

  it('details read the HTML the stored catalogue keeps apart', async () => {
    await seed({});
    await rewardsWriter.store(SID, cache);
    const root = mount();
    await waitFor(() => getByText(root, 'Card 01'));
    await click(getByRole(root, 'button', 'Card 01'));
    await vi.waitFor(() => expect(inHtmlBoxes(root, '[data-sanitized]')[0]?.textContent).toContain('About it'), {
      timeout: 10_000,
    });
  });

  it('without the view (removed with its caches), the catalogue is read: an absent one shows nothing of the view', async () => {
    await seed({});
    await popupViewItem.setValue({ rewards: rewardsPart(cache), latest: null });
    const root = mount();
    await waitFor(() => getByText(root, 'Card 01'));
    await popupViewItem.removeValue();
    await waitFor(() => expect(root.querySelector('.skeleton, [aria-busy="true"]')).not.toBeNull());
    expect(queryAllByRole(root, 'listitem')).toHaveLength(0);
  });

  it('with the view preloaded (main.tsx), the first render has the balance, rows, catalogue size and next reward', async () => {
    await seed({});
    await rewardsWriter.store(SID, cache);
    // The page's own copy, which its popup reads.
    const { preload } = await import('../../utils/storage-item');
    await preload([sessionItem, popupViewItem]);
    const root = mount();
    // No await: this is the first frame, before the catalogue's own read.
    expect(root.querySelector('.hdr-balance')?.textContent).toBe('2,500 points');
    expect(queryAllByRole(root, 'listitem')).toHaveLength(VIEW_ROWS);
    expect(root.textContent).toContain('Card 26');
    expect(getByRole(root, 'searchbox', 'Search rewards').getAttribute('placeholder')).toBe('Search 40 rewards');
    getByRole(root, 'button', /Show 30 more/);
  });
});
