/**
 * The first frame and the app, over arbitrary valid storage snapshots: the frame paints the whole
 * popup model down to where it ends, and what it painted is what the app renders, the same text and
 * the same controls enabled, before and after Preact takes the painted page over.
 */
import fc from 'fast-check';
import { render } from 'preact';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { goalPart, rewardsPart } from '../../entrypoints/background/popup-view';
import { App, preloadPrompt, preloadStillChecking } from '../../components/popup/App';
import { FIRST_FRAME_ITEMS, paintFirstFrame, snapshotOf } from '../../components/popup/first-frame/first-frame';
import { preloadOutcome } from '../../components/popup/lazy/LazyOutcome';
import { outcomeSeenItem } from '../../components/popup/redeem/outcome-seen-item';
import { popupModel, type PopupModel } from '../../components/popup/model/popup-model';
import { preload } from '../../utils/storage-item';
import {
  balanceHistoryItem,
  goalItem,
  ledgerItem,
  popupViewItem,
  sessionItem,
  syncItem,
  unsettledItem,
  type LedgerEntry,
  type LedgerState,
} from '../../utils/storage-items';
import type { AppError } from '../../utils/errors';
import type { Reward } from '../../utils/types';
import { installI18n } from './i18n-setup';
import { CONNECTED, giftCard, wallet } from './popup-fixtures';
import { rid } from './test-ids';

vi.mock('../../utils/messages', () => import('./fake-background').then((m) => m.fakeMessages));

const NOW = Date.UTC(2026, 4, 12, 9, 30);
const DAY = 86_400_000;
const ACCOUNT = `${CONNECTED.baseUrl}|${CONNECTED.tokenHint}`;

beforeAll(() => {
  // One clock for the frame and the app: "updated 3 min ago" must not tick between the two.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterAll(() => {
  vi.useRealTimers();
});

/** What an arbitrary produces. */
type ValueOf<A> = A extends fc.Arbitrary<infer T> ? T : never;

const BRANDS = ['Amazon', 'Target', 'Steam', 'Lidl', 'Café', 'IKEA'];

/** A reward as the panel lists it: brands with several values, wallets, unknown and refused costs, with and without images. */
const rewardArb = fc.record({
  brand: fc.constantFrom(...BRANDS),
  kind: fc.constantFrom('gift', 'wallet'),
  points: fc.oneof(fc.integer({ min: 0, max: 6_000 }), fc.constant(null)),
  refused: fc.boolean(),
  image: fc.constantFrom('set', 'one', 'none'),
});

function rewardOf(id: number, r: ValueOf<typeof rewardArb>): Reward {
  const points = r.points ?? 100;
  const base = r.kind === 'wallet' ? wallet(id, `${r.brand} Pay`, points) : giftCard(id, `${r.brand} $${id}`, points);
  const image =
    r.image === 'set'
      ? {}
      : r.image === 'one'
        ? { meta_data: { ...base.meta_data, image_urls: undefined } }
        : { image_url: '', meta_data: { ...base.meta_data, image_urls: undefined, image_url: undefined } };
  const cost = r.refused ? { reward_point_cost: null, costRefused: true as const } : { reward_point_cost: r.points };
  return { ...base, ...image, ...cost };
}

const ERRORS: AppError[] = [
  { kind: 'network', message: 'No connection', endpoint: '/v1/panel/rewards' },
  { kind: 'server', message: 'The panel had a problem', status: 503, endpoint: '/v1/panel/rewards' },
];

const STATES: LedgerState[] = ['pending', 'unknown', 'done', 'failed', 'not_found'];

/** One redemption the ledger holds, of a listed reward (by index) or of one no longer listed. */
const entryArb = fc.record({
  reward: fc.nat(4),
  state: fc.constantFrom(...STATES),
  age: fc.integer({ min: 1, max: 600 }),
});

const snapshotArb = fc.record({
  session: fc.constantFrom('connected', 'disconnected', 'rejected', 'rejected-sign-in'),
  rewards: fc.array(rewardArb, { maxLength: 10 }),
  balance: fc.oneof(fc.constant(null), fc.integer({ min: -200, max: 8_000 })),
  loading: fc.boolean(),
  error: fc.option(fc.constantFrom(...ERRORS), { nil: null }),
  goal: fc.option(fc.nat(4), { nil: null }),
  outcome: fc.option(fc.record({ entry: entryArb, seen: fc.boolean() }), { nil: null }),
  unsettled: fc.array(
    entryArb.map((e) => ({ ...e, state: 'unknown' as const })),
    { maxLength: 2 },
  ),
  samples: fc.array(fc.integer({ min: 0, max: 5_000 }), { maxLength: 5 }),
  questions: fc.option(fc.nat(4), { nil: null }),
});

type Snapshot = ValueOf<typeof snapshotArb>;

async function store(s: Snapshot): Promise<void> {
  const session =
    s.session === 'connected'
      ? CONNECTED
      : s.session === 'disconnected'
        ? { ...CONNECTED, connected: false }
        : { ...CONNECTED, rejected: true, signedIn: s.session === 'rejected-sign-in' };
  const rewards = s.rewards.map((r, i) => rewardOf(i + 1, r));
  const idOf = (index: number) => rid(index + 1);
  const nameOf = (index: number) => rewards[index]?.name ?? 'Gone';
  const cache = {
    data: {
      rewards,
      balance:
        s.balance === null
          ? { points: null, source: 'unknown' as const }
          : { points: s.balance, source: 'rewards' as const },
    },
    fetchedAt: NOW - 180_000,
  };
  const goal =
    s.goal === null ? null : { account: ACCOUNT, rewardId: idOf(s.goal), rewardName: nameOf(s.goal), setAt: NOW - DAY };
  await sessionItem.setValue(session);
  await popupViewItem.setValue({
    rewards: rewardsPart(cache),
    latest: null,
    profile:
      s.questions === null
        ? null
        : { open: s.questions, total: 8, first: s.questions ? 'PETS' : null, fetchedAt: NOW - 60_000 },
    goal:
      goal &&
      goalPart(
        goal,
        rewards.find((r) => r.id === goal.rewardId),
      ),
  });
  const idle = { loading: false, error: null, attemptedAt: 0 };
  await syncItem.setValue({
    rewards: { loading: s.loading, error: s.error, attemptedAt: NOW - 1_000 },
    history: idle,
    profile: idle,
  });
  const entry = (e: ValueOf<typeof entryArb>, n: number): LedgerEntry => ({
    requestId: `request-${n}`,
    rewardId: idOf(e.reward),
    rewardName: nameOf(e.reward),
    points: rewards[e.reward]?.reward_point_cost ?? 500,
    startedAt: NOW - e.age * 1_000,
    state: e.state,
  });
  if (s.outcome) {
    await ledgerItem.setValue(entry(s.outcome.entry, 0));
    if (s.outcome.seen) await outcomeSeenItem.setValue('request-0');
  }
  await unsettledItem.setValue(s.unsettled.map((e, i) => entry(e, i + 1)));
  if (goal) await goalItem.setValue(goal);
  await balanceHistoryItem.setValue(s.samples.map((points, i) => ({ at: NOW - (40 - i * 8) * DAY, points })));
}

/** The parts the first frame must paint for `model`: all of it, down to the outcome card or the rows' end. */
function partsOf(model: PopupModel): number {
  if (model.page === 'none') return 0;
  if (model.page === 'prompt') return 3;
  const goal = model.goal.earned !== null || model.goal.goal !== null ? 1 : 0;
  const questions = model.header.questions ? 1 : 0;
  // page, header, its questions line, goal, status; then the list and its rows, unless the frame ends above the outcome card.
  const top = 3 + questions + goal;
  if (model.outcome || model.checking.length > 0) return top;
  // Each row, and its value picker, a template of its own.
  const rows = model.rows.reduce((n, row) => n + (row.choice ? 2 : 1), 0);
  return top + 1 + (model.list.empty === null ? rows : 0);
}

/** What a panelist reads and can use: the text, and every control with its name and whether it is enabled. */
function seen(root: Element) {
  const controls = Array.from(root.querySelectorAll('button, select, input, a[href]'), (el) => {
    const name = el.getAttribute('aria-label') ?? el.textContent?.trim() ?? '';
    const off = el.hasAttribute('disabled') || (el as HTMLButtonElement).disabled === true;
    return `${el.tagName.toLowerCase()} “${name}” ${off ? 'disabled' : 'enabled'}`;
  });
  return { text: (root.textContent ?? '').replace(/\s+/g, ' ').trim(), controls };
}

/** Preact's first render, after what main.tsx loads before it. */
async function preact(root: Element): Promise<void> {
  await preload(FIRST_FRAME_ITEMS);
  await Promise.all([preloadPrompt(), preloadOutcome(), preloadStillChecking()]);
  render(<App />, root);
}

describe('the first frame and the app', () => {
  it('paint the same text and the same enabled controls from any snapshot', async () => {
    installI18n('en');
    await fc.assert(
      fc.asyncProperty(snapshotArb, async (snapshot) => {
        fakeBrowser.reset();
        await store(snapshot);
        const stored = await fakeBrowser.storage.local.get(FIRST_FRAME_ITEMS.map((item) => item.key));
        const model = popupModel(snapshotOf(stored), Date.now());
        const painted = document.createElement('div');
        document.body.append(painted);
        const fresh = document.createElement('div');
        document.body.append(fresh);
        try {
          // Every part of the model has a template: none is left for Preact by a shape the build missed.
          expect(paintFirstFrame(painted, stored, Date.now())).toBe(partsOf(model) > 0);
          const frame = seen(painted);
          const paintedElements = new Set(painted.querySelectorAll('*'));
          await preact(painted);
          const takenOver = seen(painted);
          // What Preact added below where the frame ended goes: what is left is what was painted.
          for (const el of Array.from(painted.querySelectorAll('*'))) {
            if (!paintedElements.has(el) && !Array.from(paintedElements).some((p) => el.contains(p))) el.remove();
          }
          expect(seen(painted)).toEqual(frame);
          render(<App />, fresh);
          expect(takenOver).toEqual(seen(fresh));
        } finally {
          render(null, painted);
          render(null, fresh);
          painted.remove();
          fresh.remove();
        }
      }),
      {
        numRuns: 50,
        examples: [
          // A goal whose own Confirm is still being checked: its Redeem is held back in both frames.
          [
            {
              session: 'connected',
              rewards: [{ brand: 'Amazon', kind: 'gift', points: 0, refused: false, image: 'set' }],
              balance: 0,
              loading: false,
              error: null,
              goal: 0,
              outcome: null,
              unsettled: [{ reward: 0, state: 'unknown', age: 1 }],
              samples: [],
              questions: null,
            },
          ],
        ],
      },
    );
    // Fifty snapshots, each painted and rendered twice: longer than one example's test.
  }, 180_000);
});
