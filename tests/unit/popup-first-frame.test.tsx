/**
 * The first frame, painted by the classic script with the popup's own views, against
 * Preact's render of the same state. Preact must take the painted DOM over without changing it, and
 * what it paints must be what Preact renders on its own.
 */
import { render } from 'preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { goalPart, rewardsPart } from '../../entrypoints/background/popup-view';
import { App, preloadPrompt } from '../../components/popup/App';
import { holdEarlyClicks, replayEarlyClicks } from '../../components/popup/first-frame/early-clicks';
import { FIRST_FRAME_ITEMS, paintFirstFrame } from '../../components/popup/first-frame/first-frame';
import { FIRST_FRAME_ROWS } from '../../components/popup/model/popup-model';
import { preloadOutcome } from '../../components/popup/redeem/LazyOutcome';
import { preload } from '../../utils/storage-item';
import {
  balanceHistoryItem,
  goalItem,
  ledgerItem,
  popupViewItem,
  rewardsItem,
  sessionItem,
  syncItem,
  type LedgerEntry,
  type SyncState,
} from '../../utils/storage-items';
import type { BalanceSample } from '../../utils/balance-trend';
import type { Reward } from '../../utils/types';
import { installI18n, type TestLocale } from './i18n-setup';
import { CONNECTED, giftCard, ledger, redemption, wallet } from './popup-fixtures';
import { rid } from './test-ids';

vi.mock('../../utils/messages', () => import('./fake-background').then((m) => m.fakeMessages));

const IDLE: SyncState = { loading: false, error: null, attemptedAt: 0 };
const DAY = 86_400_000;

beforeEach(() => {
  fakeBrowser.reset();
});
afterEach(() => {
  document.body.innerHTML = '';
});

interface State {
  session?: typeof CONNECTED & { signedIn?: boolean };
  rewards?: Reward[];
  balance?: number | null;
  sync?: Partial<SyncState>;
  ledger?: LedgerEntry;
  goal?: number;
  samples?: BalanceSample[];
  history?: boolean;
  /** Open profile questions in the view. */
  questions?: number;
  /** No popup view yet (App then reads the catalogue), or one without rewards (nothing cached yet). */
  view?: 'none' | 'no rewards';
}

const catalogue = [
  giftCard(1, 'Amazon $5', 500),
  giftCard(2, 'Target $10', 1_000),
  wallet(3, 'PayPal €25', 2_500),
  { ...giftCard(4, 'Café Noir', 900), image_url: '', meta_data: {} },
  giftCard(5, 'Steam $50', 5_000),
  { ...giftCard(6, 'Mystery', 100), reward_point_cost: null },
  giftCard(7, 'Zalando €15', 1_500),
  giftCard(8, 'IKEA €20', 2_000),
  giftCard(9, 'Lidl €5', 480),
  giftCard(10, 'Uber €10', 990),
  giftCard(11, 'Spotify 1 month', 1_099),
  giftCard(12, 'Netflix 1 month', 1_299),
];

async function store(state: State): Promise<void> {
  const session = state.session ?? CONNECTED;
  await sessionItem.setValue(session);
  const rewards = state.rewards ?? catalogue;
  const cache = {
    data: {
      rewards,
      balance:
        state.balance === null
          ? { points: null, source: 'unknown' as const }
          : { points: state.balance ?? 1_000, source: 'rewards' as const },
    },
    fetchedAt: Date.now() - 180_000,
  };
  const goal =
    state.goal === undefined
      ? null
      : { account: `${session.baseUrl}|${session.tokenHint}`, rewardId: rid(state.goal), rewardName: 'x', setAt: 1 };
  const latest = state.history ? redemption(9, rewards[0] ?? catalogue[0]!, '2026-01-02T10:00:00') : null;
  const profile =
    state.questions === undefined
      ? null
      : { open: state.questions, total: 8, first: state.questions ? 'PETS' : null, fetchedAt: Date.now() - 60_000 };
  if (state.view !== 'none')
    await popupViewItem.setValue({
      rewards: state.view === 'no rewards' ? null : rewardsPart(cache),
      latest,
      profile,
      goal:
        goal &&
        goalPart(
          goal,
          rewards.find((r) => r.id === goal.rewardId),
        ),
    });
  await syncItem.setValue({ rewards: { ...IDLE, ...state.sync }, history: IDLE, profile: IDLE });
  if (state.ledger) await ledgerItem.setValue(state.ledger);
  if (goal) await goalItem.setValue(goal);
  if (state.samples) await balanceHistoryItem.setValue(state.samples);
}

/** Paints the first frame as entrypoints/first-frame.ts does: one read of the items' keys. */
async function paint(root: HTMLElement): Promise<void> {
  const stored = await fakeBrowser.storage.local.get(FIRST_FRAME_ITEMS.map((item) => item.key));
  return paintFirstFrame(root, stored, Date.now());
}

/** Preact's first render, after what main.tsx loads before it. */
async function preact(root: HTMLElement): Promise<void> {
  await preload(FIRST_FRAME_ITEMS);
  await Promise.all([preloadPrompt(), preloadOutcome()]);
  render(<App />, root);
}

/** `text` up to where it stops matching `start`, and a little after: short failure messages. */
const prefix = (text: string, start: string) => {
  let i = 0;
  while (i < start.length && text[i] === start[i]) i += 1;
  return i === start.length ? start : `${text.slice(Math.max(0, i - 200), i)} ⟨here⟩ ${text.slice(i, i + 200)}`;
};

/**
 * The DOM as the page shows it: attributes in name order (their order is not shown, and happy-dom
 * moves an attribute a property sets to the end), an empty search box's `value` attribute left out
 * (Preact sets the property; the template carries the attribute), adjacent text as one.
 */
function html(root: Node): string {
  let out = '';
  for (const node of Array.from(root.childNodes)) {
    if (node.nodeType === 3) out += (node as Text).data.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    else if (node.nodeType === 1) {
      const el = node as Element;
      const attributes = Array.from(el.attributes)
        .filter((a) => !(a.name === 'value' && a.value === '' && el.tagName === 'INPUT'))
        .map((a) => ` ${a.name}="${a.value}"`)
        .sort()
        .join('');
      const tag = el.tagName.toLowerCase();
      out += `<${tag}${attributes}>${html(el)}${['img', 'input'].includes(tag) ? '' : `</${tag}>`}`;
    }
  }
  return out;
}

/**
 * Paints the frame, lets Preact take it over, and renders the same state with Preact alone.
 * `kept`: the taken-over page without the elements Preact added (below where the frame stopped):
 * what was painted, as it is after the takeover.
 */
async function compare(state: State, locale: TestLocale = 'en') {
  installI18n(locale);
  await store(state);
  const painted = document.createElement('div');
  document.body.append(painted);
  await paint(painted);
  const frame = html(painted);
  const paintedElements = new Set(painted.querySelectorAll('*'));
  await preact(painted);
  const takenOver = html(painted);
  for (const el of Array.from(painted.querySelectorAll('*'))) {
    if (!paintedElements.has(el) && !Array.from(paintedElements).some((p) => el.contains(p))) el.remove();
  }
  const kept = html(painted);
  const fresh = document.createElement('div');
  document.body.append(fresh);
  render(<App />, fresh);
  const own = html(fresh);
  render(null, painted);
  render(null, fresh);
  return { frame, kept, takenOver, own };
}

describe('first frame', () => {
  const cases: Array<[string, State]> = [
    ['connected, warm cache', {}],
    [
      'a search box over a long catalogue, a goal, balance over time',
      { goal: 5, samples: [0, 1, 2, 3].map((i) => ({ at: Date.now() - (40 - 10 * i) * DAY, points: 100 + 300 * i })) },
    ],
    ['the goal is affordable', { goal: 1 }],
    ['the goal is no longer offered', { goal: 999 }],
    ['the balance unknown', { balance: null }],
    ['a balance below zero', { balance: -40 }],
    ['a refresh running', { sync: { loading: true } }],
    ['offline after a failed refresh', { sync: { error: { kind: 'network', message: 'No connection' } } }],
    ['a refused refresh', { sync: { error: { kind: 'server', message: 'The panel had a problem' } } }],
    [
      'a busy panel asking to wait (429, with its Retry-After)',
      { sync: { error: { kind: 'rate_limited', message: 'Too many requests', status: 429, retryAfterSeconds: 30 } } },
    ],
    [
      'a busy panel without a Retry-After',
      { sync: { error: { kind: 'rate_limited', message: 'Slow down', status: 429 } } },
    ],
    ['a short catalogue without search', { rewards: catalogue.slice(0, 4) }],
    ['an empty catalogue', { rewards: [] }],
    ['a redemption pending', { ledger: ledger('pending') }],
    ['a settled redemption seen before', { ledger: ledger('done') }],
    ['open profile questions', { questions: 3 }],
    ['open profile questions while a refresh runs', { questions: 1, sync: { loading: true } }],
    ['every profile question answered', { questions: 0 }],
    [
      'connected, nothing cached yet: the last known balance',
      { view: 'no rewards', samples: [{ at: Date.now() - DAY, points: 700 }] },
    ],
    ['connected, nothing cached yet, the first read under way', { view: 'no rewards', sync: { loading: true } }],
    [
      'connected, nothing cached, the first read failed',
      { view: 'no rewards', sync: { error: { kind: 'timeout', message: 'Timed out' } } },
    ],
    ['connected, no popup view yet (App reads the catalogue)', { view: 'none' }],
  ];
  for (const [name, state] of cases) {
    it(`${name}: Preact takes the painted frame over unchanged, and renders the same on its own`, async () => {
      const result = await compare(state);
      expect(result.frame).toContain('<header');
      // Where the frame stopped (the rows after the first screen, an outcome card), Preact adds the
      // rest below; nothing painted changes, and the page is then what Preact renders on its own.
      expect(prefix(result.kept, result.frame)).toBe(result.frame);
      expect(result.kept).toBe(result.frame);
      expect(prefix(result.takenOver, result.own)).toBe(result.own);
      expect(result.takenOver).toBe(result.own);
    });
  }

  it('what was typed into the painted search box before Preact took over is kept and searched for', async () => {
    installI18n('en');
    await store({});
    const root = document.createElement('div');
    document.body.append(root);
    await paint(root);
    const painted = root.querySelector<HTMLInputElement>('#reward-search')!;
    painted.value = 'paypal';
    // The whole catalogue, which a search reads (the first frame has only the view's rows).
    await rewardsItem.setValue({
      data: { rewards: catalogue, balance: { points: 1_000, source: 'rewards' } },
      fetchedAt: Date.now() - 180_000,
    });
    await preact(root);
    expect(root.querySelector<HTMLInputElement>('#reward-search')!.value).toBe('paypal');
    // Searched in the whole catalogue, which the search reads.
    await vi.waitFor(
      () => expect(Array.from(root.querySelectorAll('.reward-name'), (n) => n.textContent)).toEqual(['PayPal €25']),
      { timeout: 10_000 },
    );
    render(null, root);
    root.remove();
  });

  it('paints the type filter with the catalogue’s kinds, so it is as wide as Preact’s and the filters wrap alike', async () => {
    installI18n('en');
    await store({});
    const root = document.createElement('div');
    await paint(root);
    const options = (select: Element | null) =>
      Array.from(select?.querySelectorAll('option') ?? [], (o) => `${o.value}=${o.textContent}`);
    const painted = options(root.querySelector('#reward-kind'));
    expect(painted).toEqual(['=All types', 'gift=Gift cards', 'wallet=Wallet payouts']);
    const fresh = document.createElement('div');
    await preact(fresh);
    expect(options(fresh.querySelector('#reward-kind'))).toEqual(painted);
    render(null, fresh);
  });

  it('paints the balance, the next reward and the first rows, in the list order', async () => {
    installI18n('en');
    await store({});
    const root = document.createElement('div');
    await paint(root);
    expect(root.querySelector('.hdr-balance')?.textContent).toBe('1,000 points');
    expect(root.querySelector('.hdr-next')?.textContent).toBe('99 points to Spotify 1 month');
    const names = [...root.querySelectorAll('.reward-name')].map((n) => n.textContent);
    expect(names).toHaveLength(FIRST_FRAME_ROWS);
    expect(names.slice(0, 2)).toEqual(['Lidl €5', 'Amazon $5']);
    expect(root.querySelector('#reward-search')).not.toBeNull();
    // Text only: a reward's name with markup in it stays text.
    expect(root.querySelector('.hdr-updated')?.textContent).toMatch(/^Updated .* · Refresh$/);
  });

  it('can paint the header alone first, and the rows below it after, into the same page', async () => {
    installI18n('en');
    await store({});
    const whole = document.createElement('div');
    await paint(whole);
    const root = document.createElement('div');
    const stored = await fakeBrowser.storage.local.get(FIRST_FRAME_ITEMS.map((item) => item.key));
    let rest: (() => void) | undefined;
    paintFirstFrame(root, stored, Date.now(), (then) => (rest = then));
    expect(root.querySelector('.hdr-balance')?.textContent).toBe('1,000 points');
    expect(root.querySelector('main')?.childNodes).toHaveLength(0);
    const header = root.querySelector('header');
    rest!();
    // The header painted first is the one that stays, and the page ends as the one painted at once.
    expect(root.querySelector('header')).toBe(header);
    expect(html(root)).toBe(html(whole));
  });

  it('leaves the rows to Preact when it has taken the page over before they came', async () => {
    installI18n('en');
    await store({});
    const root = document.createElement('div');
    const stored = await fakeBrowser.storage.local.get(FIRST_FRAME_ITEMS.map((item) => item.key));
    let rest: (() => void) | undefined;
    paintFirstFrame(root, stored, Date.now(), (then) => (rest = then));
    root.querySelector('main')!.append(document.createElement('p'));
    rest!();
    expect(root.querySelectorAll('.reward-name')).toHaveLength(0);
  });

  it('paints a busy panel’s header with what to do next, then the rows, under a 429', async () => {
    installI18n('en');
    await store({
      sync: { error: { kind: 'rate_limited', message: 'Too many requests', status: 429, retryAfterSeconds: 30 } },
    });
    const root = document.createElement('div');
    await paint(root);
    expect(root.querySelector('.hdr-balance')?.textContent).toBe('1,000 points');
    expect(root.querySelector('[role="alert"]')?.textContent).toContain('Try again in 30 seconds');
    expect(root.querySelectorAll('.reward-name')).toHaveLength(FIRST_FRAME_ROWS);
  });

  it('paints the open profile questions line with its link to the first open question', async () => {
    installI18n('en');
    await store({ questions: 3 });
    const root = document.createElement('div');
    await paint(root);
    const line = [...root.querySelectorAll('.hdr-next')].find((p) => p.textContent?.includes('profile questions'));
    expect(line?.textContent).toBe('3 profile questions open · Answer now');
    expect(line?.querySelector('a')?.getAttribute('href')).toBe('options.html#answer-PETS');
  });

  it('names are text, never markup', async () => {
    installI18n('en');
    await store({ rewards: [giftCard(1, '<img src=x onerror=alert(1)>', 10)] });
    const root = document.createElement('div');
    await paint(root);
    expect(root.querySelector('.reward-name')?.textContent).toBe('<img src=x onerror=alert(1)>');
    expect(root.querySelector('.reward-name img')).toBeNull();
  });

  it('speaks the panelist’s language and numbers, as Preact does', async () => {
    const result = await compare({}, 'de');
    expect(result.kept).toBe(result.frame);
    expect(result.takenOver).toBe(result.own);
    expect(result.frame).toContain('1.000');
    expect(result.frame).toContain('Einstellungen');
  });

  it('paints the prompt to connect before any connection', async () => {
    const result = await compare({ session: { ...CONNECTED, connected: false } });
    expect(result.frame).toContain('connect-title');
    expect(result.takenOver).toBe(result.frame);
    expect(result.own).toBe(result.frame);
  });

  it('paints the prompt to reconnect after the token was refused', async () => {
    const result = await compare({ session: { ...CONNECTED, rejected: true } });
    expect(result.frame).toContain('connect-title');
    expect(result.takenOver).toBe(result.frame);
  });

  it('stops above the outcome of a redemption, which Preact adds below what is painted', async () => {
    installI18n('en');
    await store({ ledger: ledger('unknown') });
    const root = document.createElement('div');
    await paint(root);
    expect(root.querySelector('.hdr-balance')).not.toBeNull();
    expect(root.querySelector('.reward')).toBeNull();
  });

  it('a click on a painted button before Preact took over is held, then answered', async () => {
    installI18n('en');
    await store({});
    const root = document.createElement('div');
    document.body.append(root);
    await paint(root);
    holdEarlyClicks(root);
    const details = () => root.querySelector('[aria-controls="reward-9-details"]')!;
    (details() as HTMLButtonElement).click();
    expect(details().getAttribute('aria-expanded')).toBe('false');
    await preact(root);
    replayEarlyClicks();
    await vi.waitFor(() => expect(details().getAttribute('aria-expanded')).toBe('true'), { timeout: 10_000 });
    render(null, root);
  });
});
