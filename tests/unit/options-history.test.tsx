import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { HistorySection, PAGE_SIZE } from '../../components/options/HistorySection';
import { formatDateTime, formatMoney } from '../../utils/format';
import { sendMessage } from '../../utils/messages';
import { historyItem } from '../../utils/storage-items';
import type { Redemption } from '../../utils/types';
import { installI18n } from './i18n-setup';
import * as page from './options-fixtures';
import { did, rid, at } from './test-ids';

vi.mock('../../utils/messages', () => ({ sendMessage: vi.fn() }));

const send = sendMessage as unknown as page.SendMock;

let nextId = 1;
function redemption(partial: Partial<Omit<Redemption, 'created_at'>> & { created_at?: string }): Redemption {
  const id = nextId++;
  return {
    id: did(id),
    cost: 5,
    currency: 'USD',
    reward_point_cost: 500,
    reward: {
      id: rid(100 + id),
      name: `Reward ${id}`,
      cost: 5,
      cost_currency: 'USD',
      type: 'gift',
      image_url: `https://img.example/${id}.png`,
      meta_data: {},
      reward_point_cost: null,
    },
    approved: false,
    processed: false,
    updated_at: '2024-01-01T00:00:00',
    failed: false,
    refunded: false,
    partner_status: null,
    failed_reason: null,
    transaction_id: null,
    ...partial,
    created_at: at(partial.created_at ?? '2024-01-01T00:00:00'),
  };
}

let container: HTMLElement;

const mount = () => page.mountInto(container, <HistorySection />);
/** Mounted, once the stored history is read: its rows or its empty state are on screen. */
const mountRead = async () => {
  await mount();
  await vi.waitFor(() => expect(container.querySelector('.history-list, .empty-state')).not.toBeNull(), {
    timeout: 10_000,
  });
};
const button = (name: string) => page.button(container, name);
const rows = () => [...container.querySelectorAll('.history-row')] as HTMLElement[];
const stateOf = (row: HTMLElement) => row.querySelector('.state')?.textContent;
const nameOf = (row: HTMLElement) => row.querySelector('.reward-name')?.textContent;

beforeEach(() => {
  fakeBrowser.reset();
  nextId = 1;
  container = page.newContainer();
  send.mockReset();
  send.mockResolvedValue({ ok: true, data: [] });
});

afterEach(() => page.dropContainer(container));

describe('redemption history', () => {
  it('renders every state, newest first (timestamps read as UTC)', async () => {
    const list = [
      redemption({ reward: { ...redemption({}).reward, name: 'Pending card' }, created_at: '2024-01-01T10:00:00' }),
      redemption({ approved: true, created_at: '2024-02-01T10:00:00' }),
      redemption({ processed: true, approved: true, created_at: '2024-03-01T10:00:00' }),
      redemption({ partner_status: 'COMPLETE', created_at: '2024-04-01T10:00:00' }),
      redemption({ partner_status: 'UNCLAIMED', created_at: '2024-05-01T10:00:00' }),
      redemption({ failed: true, failed_reason: 'Out of stock', created_at: '2024-06-01T10:00:00' }),
      redemption({ failed: true, refunded: true, failed_reason: 'Declined', created_at: '2024-07-01T10:00:00' }),
      redemption({ partner_status: 'IN_REVIEW', approved: true, created_at: '2024-08-01T10:00:00' }),
      // Same day, a later hour: order is by full UTC time, not by date text.
      redemption({ failed: true, created_at: '2024-08-01T23:30:00' }),
    ];
    await historyItem.setValue({ data: list, fetchedAt: Date.now() });
    await mountRead();
    expect(rows().map(stateOf)).toEqual([
      'Failed',
      'In review',
      'Points returned',
      'Failed: Out of stock',
      'Unclaimed',
      'Complete',
      'Complete',
      'Approved',
      'Pending',
    ]);
    expect(nameOf(rows()[8]!)).toBe('Pending card');
    // Each state has the theme's state colour class; the provider's raw status stays for support.
    expect(rows().map((r) => r.querySelector('.state')?.className)).toEqual([
      'state state-failed',
      'state state-other',
      'state state-refunded',
      'state state-failed',
      'state state-unclaimed',
      'state state-complete',
      'state state-complete',
      'state state-approved',
      'state state-pending',
    ]);
    expect(rows()[1]!.querySelector('.state')?.getAttribute('title')).toBe(
      'Status reported by the provider: IN_REVIEW',
    );
    expect(container.textContent).not.toContain('IN_REVIEW');
    // Unclaimed says what to do next.
    expect(rows()[4]!.textContent).toContain(
      'Not claimed yet: open the e-mail from the reward provider and follow its link.',
    );
    expect(rows().filter((r) => r.textContent?.includes('Not claimed yet'))).toHaveLength(1);
    expect(send).toHaveBeenCalledWith('refreshHistory', { force: false });
  });

  it('shows name, small lazy image with empty alt, points, money and local date', async () => {
    const r = redemption({ cost: 15, currency: 'EUR', reward_point_cost: 1500, created_at: '2024-10-21T11:05:19' });
    await historyItem.setValue({ data: [r], fetchedAt: Date.now() });
    await mountRead();
    const row = rows()[0]!;
    const img = row.querySelector('img')!;
    expect(img.getAttribute('alt')).toBe('');
    expect(img.getAttribute('loading')).toBe('lazy');
    expect(img.getAttribute('src')).toBe(r.reward.image_url);
    expect(row.textContent).toContain(r.reward.name);
    expect(row.textContent).toContain('1,500 points');
    expect(row.textContent).toContain(formatMoney(15, 'EUR'));
    expect(row.querySelector('time')?.textContent).toBe(formatDateTime('2024-10-21T11:05:19'));
    expect(row.querySelector('time')?.getAttribute('datetime')).toBe('2024-10-21T11:05:19.000Z');
  });

  it('every row has its brand tile from the start, below the fold too; the image covers it once loaded, a failed one never', async () => {
    await historyItem.setValue({ data: Array.from({ length: 12 }, () => redemption({})), fetchedAt: Date.now() });
    await mountRead();
    // Nothing has loaded or failed yet, as for a lazy image not scrolled to: each row shows its tile.
    for (const row of rows()) {
      expect(row.querySelector('.history-img .reward-tile')?.textContent, nameOf(row)).toBe('R');
      expect(row.querySelector('.history-img img')?.classList.contains('loaded')).toBe(false);
    }
    const [first, second] = rows() as [HTMLElement, HTMLElement];
    await act(() => void first.querySelector('img')!.dispatchEvent(new Event('load')));
    expect(first.querySelector('img')?.classList.contains('loaded')).toBe(true);
    await act(() => void second.querySelector('img')!.dispatchEvent(new Event('error')));
    expect(second.querySelector('img')).toBeNull();
    expect(second.querySelector('.reward-tile')).not.toBeNull();
  });

  it('has an empty state', async () => {
    await historyItem.setValue({ data: [], fetchedAt: Date.now() });
    await mountRead();
    expect(container.textContent).toContain('No redemptions yet');
    expect(rows()).toHaveLength(0);
  });

  it('renders thousands of entries a page at a time, reading only the pages it shows', async () => {
    const many = Array.from({ length: 2000 }, (_, i) =>
      redemption({ created_at: new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString().slice(0, 19) }),
    );
    await historyItem.setValue({ data: many, fetchedAt: Date.now() });
    const read: string[] = [];
    const get = fakeBrowser.storage.local.get.bind(fakeBrowser.storage.local);
    vi.spyOn(fakeBrowser.storage.local, 'get').mockImplementation(
      (keys) => (read.push(...[keys ?? []].flat().map(String)), get(keys)),
    );
    await mount();
    await vi.waitFor(() => expect(rows()).toHaveLength(PAGE_SIZE), { timeout: 10_000 });
    expect(nameOf(rows()[0]!)).toBe('Reward 2000');
    // The head and the first of 20 pages.
    expect(read.filter((k) => k.startsWith('cache:history'))).toEqual(['cache:history', 'cache:history:0']);
    await act(() => button(`Show ${PAGE_SIZE} more redemptions`).click());
    await vi.waitFor(() => expect(rows()).toHaveLength(PAGE_SIZE * 2), { timeout: 10_000 });
    // Counts in the panelist's number format.
    expect(container.textContent).toContain(`Showing ${PAGE_SIZE * 2} of 2,000`);
    expect(read.filter((k) => k.startsWith('cache:history:') && k !== 'cache:history:0')).toEqual([]);
  });

  it('“Show 50 more redemptions” takes focus on to the first row it added; after the last page too, never to the page’s body', async () => {
    const many = Array.from({ length: 120 }, (_, i) =>
      redemption({ created_at: new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString().slice(0, 19) }),
    );
    await historyItem.setValue({ data: many, fetchedAt: Date.now() });
    await mount();
    await vi.waitFor(() => expect(rows()).toHaveLength(PAGE_SIZE), { timeout: 10_000 });
    button(`Show ${PAGE_SIZE} more redemptions`).focus();
    await act(() => button(`Show ${PAGE_SIZE} more redemptions`).click());
    await vi.waitFor(() => expect(rows()).toHaveLength(PAGE_SIZE * 2), { timeout: 10_000 });
    await vi.waitFor(() => expect(document.activeElement).toBe(rows()[PAGE_SIZE]), { timeout: 10_000 });
    expect(nameOf(rows()[PAGE_SIZE]!)).toBe('Reward 70');
    // The last page: its button says how many are left, and goes; focus does not go with it.
    button(`Show ${120 - PAGE_SIZE * 2} more redemptions`).focus();
    await act(() => button(`Show ${120 - PAGE_SIZE * 2} more redemptions`).click());
    await vi.waitFor(() => expect(rows()).toHaveLength(120), { timeout: 10_000 });
    await vi.waitFor(() => expect(document.activeElement).toBe(rows()[PAGE_SIZE * 2]), { timeout: 10_000 });
    expect(container.querySelector('button.history-more')).toBeNull();
  });

  it('in German the count of shown redemptions is in German numbers: “50 von 1.200”', async () => {
    installI18n('de');
    const many = Array.from({ length: 1200 }, (_, i) =>
      redemption({ created_at: new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString().slice(0, 19) }),
    );
    await historyItem.setValue({ data: many, fetchedAt: Date.now() });
    await mount();
    await vi.waitFor(() => expect(rows()).toHaveLength(PAGE_SIZE), { timeout: 10_000 });
    expect(container.textContent).toContain(`${PAGE_SIZE} von 1.200`);
    installI18n('en');
  });

  it('still reads a history stored whole, as before pages, newest first', async () => {
    const old = [
      redemption({ id: did(1), created_at: '2020-01-01T10:00:00' }),
      redemption({ id: did(2), created_at: '2021-01-01T10:00:00' }),
    ];
    await fakeBrowser.storage.local.set({ [historyItem.key]: { data: old, fetchedAt: Date.now() } });
    await mount();
    await vi.waitFor(() => expect(rows()).toHaveLength(2), { timeout: 10_000 });
    expect((await historyItem.getValue())?.data).toHaveLength(2);
  });

  it('refreshes on request and shows a failure with what to do next', async () => {
    await historyItem.setValue({ data: [], fetchedAt: Date.now() });
    await mount();
    send.mockResolvedValueOnce({
      ok: false,
      error: { kind: 'server', message: 'The panel had a problem (HTTP 503). Try again later.', status: 503 },
    });
    await act(() => button('Refresh history').click());
    await page.settle();
    expect(send).toHaveBeenLastCalledWith('refreshHistory', { force: true });
    // The panel by its name, without the HTTP status.
    expect(container.querySelector('[role=alert]')?.textContent).toBe('Panel Rewards had a problem. Try again later.');
  });
});

describe('opened at #history', () => {
  afterEach(() => history.replaceState(null, '', location.pathname));

  it('focuses and scrolls to the history when the page opens at #history, and on a later hash change', async () => {
    const scrolled: Element[] = [];
    const spy = vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this);
    });
    await historyItem.setValue({ data: [redemption({})], fetchedAt: Date.now() });
    history.replaceState(null, '', '#history');
    await mount();
    await page.nextFrame();
    const heading = container.querySelector('#history-heading');
    expect(document.activeElement).toBe(heading);
    // happy-dom may also announce the fragment set before mounting as a hash change: once or twice, always the section.
    expect([...new Set(scrolled.map((e) => e.tagName + e.id))]).toEqual(['SECTIONhistory']);
    const before = scrolled.length;

    (document.activeElement as HTMLElement).blur();
    history.replaceState(null, '', '#');
    await act(() => void dispatchEvent(new HashChangeEvent('hashchange')));
    await page.nextFrame();
    expect(document.activeElement).not.toBe(heading);
    history.replaceState(null, '', '#history');
    await act(() => void dispatchEvent(new HashChangeEvent('hashchange')));
    await page.nextFrame();
    expect(document.activeElement).toBe(heading);
    expect(scrolled.length).toBeGreaterThan(before);
    spy.mockRestore();
  });

  it('leaves focus alone without the fragment', async () => {
    await historyItem.setValue({ data: [], fetchedAt: Date.now() });
    await mount();
    await page.nextFrame();
    expect(document.activeElement).toBe(document.body);
  });
});
