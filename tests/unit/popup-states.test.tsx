import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { appError } from '../../utils/errors';
import { balanceHistoryItem, rewardsItem, sessionItem, syncItem } from '../../utils/storage-items';
import { installI18n } from './i18n-setup';
import {
  CONNECTED,
  click,
  getByRole,
  getByText,
  giftCard,
  IDLE,
  mount,
  queryAllByRole,
  queryByText,
  redemption,
  seed,
  unmount,
  waitFor,
} from './popup-fixtures';
import { background } from './fake-background';

vi.mock('../../utils/messages', () => import('./fake-background').then((m) => m.fakeMessages));

const rewards = [giftCard(1, 'Amazon $5', 500), giftCard(2, 'Target $50', 5000)];

beforeEach(() => {
  fakeBrowser.reset();
  background.calls.length = 0;
  background.answers = {};
});
afterEach(() => {
  unmount();
  vi.restoreAllMocks();
});

describe('popup states', () => {
  it('not connected: one welcome line and one way in, Connect, which opens the options page; fetches nothing', async () => {
    const open = vi.spyOn(fakeBrowser.runtime, 'openOptionsPage').mockResolvedValue();
    const root = mount();
    const connect = await waitFor(() => getByRole(root, 'button', 'Connect'));
    const prompt = root.querySelector('.prompt')!;
    expect(prompt.querySelector('h2')?.textContent).toBe('Welcome');
    expect([...prompt.querySelectorAll('p')].map((p) => p.textContent)).toEqual([
      'See your Panel Rewards points and redeem rewards right here, from the toolbar.',
    ]);
    // One action: no second door beside it (this build has no sign-in, so no key link either).
    expect([...prompt.querySelectorAll('button, a')].map((el) => el.textContent)).toEqual(['Connect']);
    await click(connect);
    await waitFor(() => expect(open).toHaveBeenCalledOnce());
    expect(background.calls).toEqual([]);
  });

  it('token rejected: asks to reconnect instead of showing data', async () => {
    await seed({ rewards, balance: 2500 });
    await sessionItem.setValue({ ...CONNECTED, rejected: true });
    const root = mount();
    await waitFor(() => getByRole(root, 'button', 'Reconnect'));
    expect(root.querySelector('.prompt p')?.textContent).toBe(
      'Panel Rewards no longer accepts your personal key. Connect again to see your points.',
    );
    expect(queryByText(root, 'Amazon $5')).toBeNull();
  });

  it('first load: skeleton rows marked busy until the background stores rewards', async () => {
    await seed({ rewardsSync: { loading: true } });
    const root = mount();
    const skeleton = await waitFor(() => {
      const el = root.querySelector('.skeleton');
      if (!el) throw new Error('no skeleton');
      return el;
    });
    expect(skeleton.getAttribute('aria-busy')).toBe('true');
    expect(getByText(root, 'Loading rewards…')).toBeTruthy();

    await rewardsItem.setValue({
      data: { rewards, balance: { points: 2500, source: 'rewards' } },
      fetchedAt: Date.now(),
    });
    await waitFor(() => getByText(root, 'Amazon $5'));
    expect(root.querySelector('.skeleton')).toBeNull();
  });

  it('cached data: shown at once with the balance, panel name and age, and refreshed without force', async () => {
    await seed({ rewards, balance: 2500, fetchedAt: Date.now() - 120_000 });
    const root = mount();
    await waitFor(() => getByText(root, 'Amazon $5'));
    expect(getByRole(root, 'heading', 'Panel Rewards')).toBeTruthy();
    expect(root.querySelector('.hdr-balance')?.textContent).toBe('2,500 points');
    // In words where they fit, not "2 min. ago".
    expect(getByText(root, /^Updated 2 minutes ago · Refresh$/)).toBeTruthy();
    await waitFor(() =>
      expect(background.calls).toEqual([
        { type: 'refreshRewards', data: { force: false } },
        { type: 'refreshHistory', data: { force: false } },
      ]),
    );
  });

  it('the Refresh button forces a refresh of rewards and history', async () => {
    await seed({ rewards, balance: 2500 });
    const root = mount();
    const refresh = await waitFor(() => getByRole(root, 'button', 'Refresh: your points and rewards'));
    await waitFor(() => expect(background.calls).toHaveLength(2));
    await click(refresh);
    expect(background.calls.slice(2)).toEqual([
      { type: 'refreshRewards', data: { force: true } },
      { type: 'refreshHistory', data: { force: true } },
    ]);
  });

  it('the Settings button opens the options page (one word for the page everywhere)', async () => {
    const open = vi.spyOn(fakeBrowser.runtime, 'openOptionsPage').mockResolvedValue();
    await seed({ rewards, balance: 2500 });
    const root = mount();
    await click(await waitFor(() => getByRole(root, 'button', 'Settings')));
    await waitFor(() => expect(open).toHaveBeenCalledOnce());
  });

  it('balance unknown: says so and still lists costs without progress bars', async () => {
    await seed({ rewards, balance: null });
    const root = mount();
    await waitFor(() => getByText(root, 'Amazon $5'));
    expect(root.querySelector('.hdr-balance')?.textContent).toBe('Balance unknown');
    expect(queryAllByRole(root, 'progressbar')).toHaveLength(0);
    expect(getByText(root, '500 points')).toBeTruthy();
    // The server decides when the balance is unknown (design §2).
    expect((getByRole(root, 'button', 'Redeem Target $50') as HTMLButtonElement).disabled).toBe(false);
  });

  it('offline: cached data stays, with one amber line in the header saying how old the points are, and Retry', async () => {
    await seed({
      rewards,
      balance: 2500,
      rewardsSync: { error: appError('network', 'The panel could not be reached. Check your connection.') },
    });
    const root = mount();
    // A compact line inside the header, not a card pushing the rewards down (once the cached data is read).
    const alert = await waitFor(() => {
      const found = getByRole(root, 'alert');
      expect(found.closest('header')).not.toBeNull();
      return found;
    });
    expect(alert.className).toContain('hdr-offline');
    expect(alert.textContent).toBe('Can’t reach Panel Rewards right now — last updated 2 minutes ago · Retry');
    expect(getByText(root, 'Amazon $5')).toBeTruthy();
    expect(root.querySelectorAll('.notice')).toHaveLength(0);
    await waitFor(() => expect(background.calls).toHaveLength(2));
    await click(getByRole(root, 'button', 'Retry: your points and rewards'));
    expect(background.calls.slice(2).map((c) => c.data)).toEqual([{ force: true }, { force: true }]);
  });

  it('error on first load: no skeleton forever, the error in plain words and a retry instead', async () => {
    await seed({
      rewardsSync: {
        error: appError('server', 'The panel is having trouble (HTTP 503).', {
          status: 503,
          endpoint: '/v1/panel/rewards',
        }),
      },
    });
    const root = mount();
    const alert = await waitFor(() => getByRole(root, 'alert'));
    expect(alert.querySelector('p')?.textContent).toBe(
      'Panel Rewards has a problem right now. Your points and rewards appear as soon as it answers.',
    );
    // The code only behind "Details for support", closed.
    expect(alert.querySelector('details.support:not([open]) .support-text')?.textContent).toBe(
      'HTTP 503 /v1/panel/rewards',
    );
    expect(alert.querySelector('p')?.textContent).not.toContain('HTTP');
    expect(root.querySelector('.skeleton')).toBeNull();
  });

  it('no cache, but the balance was seen before: it stays, said to be the last known, and no trend floats without it', async () => {
    await seed({ rewardsSync: { error: appError('server', 'x', { status: 500, endpoint: '/v1/panel/rewards' }) } });
    await balanceHistoryItem.setValue([
      { at: Date.now() - 20 * 86_400_000, points: 1000 },
      { at: Date.now() - 86_400_000, points: 2050 },
    ]);
    const root = mount();
    await waitFor(() => getByRole(root, 'alert'));
    // The last known balance comes with the samples' own read.
    await waitFor(() => expect(root.querySelector('.hdr-balance')?.textContent).toBe('2,050 points'));
    expect(root.querySelector('header')?.textContent).toContain('Your last known balance');
    expect(root.textContent).not.toContain('earned');
    expect(root.querySelector('.goal-change, .goal')).toBeNull();
  });

  it('in German: plain words, the balance kept', async () => {
    installI18n('de');
    await seed({ rewardsSync: { error: appError('network', 'x', { endpoint: '/v1/panel/rewards' }) } });
    await balanceHistoryItem.setValue([{ at: Date.now() - 86_400_000, points: 2050 }]);
    const root = mount();
    const alert = await waitFor(() => getByRole(root, 'alert'));
    expect(alert.querySelector('p')?.textContent).toBe(
      'Panel Rewards ist gerade nicht erreichbar. Ihre Punkte und Prämien erscheinen, sobald es antwortet.',
    );
    await waitFor(() => expect(root.querySelector('.hdr-balance')?.textContent).toBe('2.050 Punkte'));
    expect(root.querySelector('header')?.textContent).toContain('Ihr zuletzt bekannter Punktestand');
  });

  it('loading: marks the list and the Refresh busy while the background fetches, said once beside how old the points are', async () => {
    await seed({ rewards, balance: 2500 });
    const root = mount();
    await waitFor(() => getByText(root, 'Amazon $5'));
    expect(root.querySelector('main')?.getAttribute('aria-busy')).toBe('false');
    await syncItem.setValue({ rewards: { ...IDLE, loading: true }, history: IDLE, profile: IDLE });
    await waitFor(() => expect(root.querySelector('main')?.getAttribute('aria-busy')).toBe('true'));
    expect(getByRole(root, 'button', 'Refresh: your points and rewards').getAttribute('aria-busy')).toBe('true');
    // "Updated 2 min. ago" beside "Updating…" said two things at once.
    expect(root.textContent).not.toContain('Updating…');
    // Spinning while busy; its place kept when idle, so the freshness line does not move.
    expect(root.querySelector('.spinner:not(.idle)')).not.toBeNull();
    await syncItem.setValue({ rewards: IDLE, history: IDLE, profile: IDLE });
    await waitFor(() => expect(root.querySelector('.spinner.idle')).not.toBeNull());
  });

  it('latest redemption: the newest history entry with its state', async () => {
    const r = giftCard(9, 'Old Coffee', 500);
    const newest = giftCard(10, 'New Books', 1000);
    await seed({
      rewards,
      balance: 2500,
      history: [
        redemption(1, r, '2024-09-14T08:12:45', { processed: true }),
        redemption(3, newest, '2025-02-11T19:03:37', { partner_status: 'UNCLAIMED' }),
        redemption(2, r, '2025-01-09T16:25:40', { failed: true, failed_reason: 'declined' }),
      ],
    });
    const root = mount();
    const latest = await waitFor(() => getByRole(root, 'region', 'Latest redemption'));
    expect(latest.textContent).toContain('New Books');
    expect(latest.textContent).toContain('Unclaimed');
    expect(latest.textContent).toContain('1,000 points');
  });

  // Fails if the latest redemption is drawn under the skeleton: the rows, taller, then push it down.
  it('latest redemption read before the rewards waits for the rows, then stands below them', async () => {
    const history = [redemption(3, giftCard(10, 'New Books', 1000), '2025-02-11T19:03:37')];
    // Shown once with the rows, so its code is loaded: below, its absence is the app's choice.
    await seed({ rewards, balance: 2500, history });
    mount();
    await waitFor(() => getByRole(document.body, 'region', 'Latest redemption'));
    unmount();
    await rewardsItem.setValue(null);
    await seed({ history, rewardsSync: { loading: true } });
    const root = mount();
    await waitFor(() => getByText(root, 'Loading rewards…'));
    expect(queryAllByRole(root, 'region', 'Latest redemption')).toHaveLength(0);
    await rewardsItem.setValue({
      data: { rewards, balance: { points: 2500, source: 'rewards' } },
      fetchedAt: Date.now(),
    });
    const latest = await waitFor(() => getByRole(root, 'region', 'Latest redemption'));
    const redeem = getByRole(root, 'button', 'Redeem Amazon $5');
    expect(redeem.compareDocumentPosition(latest) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
