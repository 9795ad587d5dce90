/**
 * The popup's two frames over arbitrary storage: what popup-frames-agree.test.tsx checks and
 * popup-frames-breakages.test.tsx breaks. A snapshot is what storage can hold when the popup opens
 * (any session, any failure the client can report, any language, cached or not, redemptions on
 * their way); `framesAgree` paints the first frame from it, lets Preact take that frame over,
 * renders App alone beside it, and holds each page to what a panelist perceives of the other and to
 * {@link mustShow}: what the snapshot says must be on screen, written from the rules, not from the
 * popup's own model, so a wrong model is caught even when both frames show it.
 */
import fc from 'fast-check';
import { render } from 'preact';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { goalPart, rewardsPart } from '../../entrypoints/background/popup-view';
import { App, preloadPrompt, preloadStillChecking } from '../../components/popup/App';
import { FIRST_FRAME_ITEMS, paintFirstFrame } from '../../components/popup/first-frame/first-frame';
import { preloadOutcome } from '../../components/popup/redeem/LazyOutcome';
import { FIRST_FRAME_ROWS } from '../../components/popup/model/popup-model';
import { outcomeSeenItem } from '../../components/popup/redeem/outcome-seen-item';
import { settledSeenItem } from '../../components/popup/redeem/settled-seen-item';
import { clockTime } from '../../components/popup/when';
import { OUTCOME_ID } from '../../components/popup/model/outcome-ids';
import type { BalanceSample } from '../../utils/balance-trend';
import type { AppError } from '../../utils/errors';
import { formatRelative } from '../../utils/format';
import { t, tp } from '../../utils/i18n';
import { settings } from '../../utils/settings';
import { preload } from '../../utils/storage-item';
import {
  type LedgerEntry,
  type LedgerState,
  sessionItem,
  popupViewItem,
  syncItem,
  ledgerItem,
  settledItem,
  unsettledItem,
  goalItem,
  balanceHistoryItem,
} from '../../utils/storage-items';
import type { Reward } from '../../utils/types';
import type { RewardId } from '../../utils/ids';
import { installI18n, LANGUAGES } from './i18n-setup';
import { CONNECTED, giftCard, wallet } from './popup-fixtures';
import { rid } from './test-ids';

export const NOW = Date.UTC(2026, 4, 12, 9, 30);
/** When the stored catalogue was read: three minutes before NOW. */
const REWARDS_READ_AT = NOW - 180_000;
/** Snapshots per run of the guard, and of each breakage tried on it (popup-frames-breakages.test.tsx). */
export const RUNS = Number(process.env.FRAMES_RUNS ?? 120);
/**
 * The guard's seed: its coverage bars are counts of one draw, so the draw is fixed (FRAMES_SEED
 * explores others). The breakages test tries this seed first, so the run the guard makes is the one
 * shown to fail on them.
 */
export const SEED = Number(process.env.FRAMES_SEED ?? 7);
const DAY = 86_400_000;
const ACCOUNT = `${CONNECTED.baseUrl}|${CONNECTED.tokenHint}`;
const ENDPOINT = '/v1/panel/rewards';

/** What an arbitrary produces. */
type ValueOf<A> = A extends fc.Arbitrary<infer T> ? T : never;

const weighted = <T,>(...choices: Array<[weight: number, value: T]>): fc.Arbitrary<T> =>
  fc.oneof(...choices.map(([weight, value]) => ({ weight, arbitrary: fc.constant(value) })));

const BRANDS = ['Amazon', 'Target', 'Steam', 'Lidl', 'Café', 'IKEA'];

/** A reward as the panel lists it: brands of several values, wallets, unknown and refused costs, with and without images. */
const rewardArb = fc.record({
  brand: fc.constantFrom(...BRANDS),
  kind: fc.constantFrom('gift', 'wallet'),
  points: fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min: 0, max: 6_000 }) },
    { weight: 1, arbitrary: fc.constant(null) },
  ),
  refused: weighted([9, false], [1, true]),
  image: fc.constantFrom('set', 'one', 'none'),
  // Listed alike to the reward before it (brand, kind, points): a brand's picker shows the two as one.
  twin: weighted([2, false], [1, true]),
});

function rewardOf(id: number, r: ValueOf<typeof rewardArb>): Reward {
  const points = r.points ?? 100;
  // Names are unique, so a Redeem's name says which reward it is.
  const base =
    r.kind === 'wallet' ? wallet(id, `${r.brand} Pay ${id}`, points) : giftCard(id, `${r.brand} $${id}`, points);
  const image =
    r.image === 'set'
      ? {}
      : r.image === 'one'
        ? { meta_data: { ...base.meta_data, image_urls: undefined } }
        : { image_url: '', meta_data: { ...base.meta_data, image_urls: undefined, image_url: undefined } };
  const cost = r.refused ? { reward_point_cost: null, costRefused: true as const } : { reward_point_cost: r.points };
  return { ...base, ...image, ...cost };
}

/** Every failure the client can report (utils/errors.ts), as the background stores it with the rewards' sync state. */
const errorArb: fc.Arbitrary<AppError> = fc.oneof(
  fc.constant<AppError>({ kind: 'network', message: 'Failed to fetch', endpoint: ENDPOINT }),
  fc.constant<AppError>({ kind: 'timeout', message: 'The panel did not answer in time', endpoint: ENDPOINT }),
  fc.option(fc.integer({ min: 1, max: 600 }), { nil: undefined }).map<AppError>((wait) => ({
    kind: 'rate_limited',
    message: 'Too Many Attempts.',
    status: 429,
    endpoint: ENDPOINT,
    ...(wait === undefined ? {} : { retryAfterSeconds: wait }),
  })),
  fc.constant<AppError>({
    kind: 'not_allowed',
    message: 'This action is unauthorized.',
    status: 403,
    endpoint: ENDPOINT,
  }),
  fc.constantFrom(400, 404, 409, 422).map<AppError>((status) => ({
    kind: 'rejected',
    message: 'The selected id is invalid.',
    status,
    endpoint: ENDPOINT,
  })),
  fc
    .constantFrom(500, 502, 503)
    .map<AppError>((status) => ({ kind: 'server', message: 'Server Error', status, endpoint: ENDPOINT })),
  // The panel answered, not in the documented shape.
  fc.constant<AppError>({
    kind: 'unexpected',
    message: 'The answer was not a list of rewards.',
    status: 200,
    endpoint: ENDPOINT,
  }),
  // Ours: the extension's own worker did not answer.
  fc.constant<AppError>({
    kind: 'unexpected',
    message: 'The extension did not answer. Close the popup and try again.',
  }),
  fc.constant<AppError>({ kind: 'unauthorized', message: 'Unauthenticated.', status: 401, endpoint: ENDPOINT }),
);

const STATES: LedgerState[] = ['pending', 'unknown', 'done', 'failed', 'not_found'];

/** Which reward a redemption is of: the goal's (when there is one), a listed one by index, or one no longer listed. */
const targetArb = fc.oneof({ weight: 2, arbitrary: fc.constant('goal' as const) }, { weight: 3, arbitrary: fc.nat(5) });

const entryArb = fc.record({
  reward: targetArb,
  state: fc.constantFrom(...STATES),
  age: fc.integer({ min: 1, max: 600 }),
  // The panel answered that it went through (what a not-found card asks the panelist to take up).
  saidYes: fc.boolean(),
});

export const snapshotArb = fc.record({
  locale: fc.constantFrom(...LANGUAGES),
  session: weighted<'key' | 'sign-in' | 'disconnected' | 'rejected' | 'rejected-sign-in'>(
    [6, 'key'],
    [3, 'sign-in'],
    [1, 'disconnected'],
    [1, 'rejected'],
    [1, 'rejected-sign-in'],
  ),
  // What the background has cached: the view with its rewards, a view with none yet (a first read
  // under way or failed: the last known balance), or no view yet (App then reads the catalogue).
  cache: weighted<'view' | 'no rewards' | 'no view'>([16, 'view'], [2, 'no rewards'], [1, 'no view']),
  rewards: fc.oneof(
    { weight: 12, arbitrary: fc.array(rewardArb, { minLength: 1, maxLength: 12 }) },
    { weight: 1, arbitrary: fc.constant<Array<ValueOf<typeof rewardArb>>>([]) },
  ),
  // Points, none shown by the panel (null), or not read beside the rewards (a values read that failed).
  balance: fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min: -200, max: 8_000 }) },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constant('unread' as const) },
  ),
  loading: fc.boolean(),
  error: fc.oneof({ weight: 2, arbitrary: fc.constant(null) }, { weight: 3, arbitrary: errorArb }),
  goal: fc.oneof(
    { weight: 2, arbitrary: fc.constant(null) },
    { weight: 4, arbitrary: fc.nat(5) },
    { weight: 1, arbitrary: fc.constant('gone' as const) },
  ),
  outcome: fc.oneof(
    { weight: 3, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.record({ entry: entryArb, seen: fc.boolean() }) },
    // A card that asks to contact the panel first, in view: rare by chance, and a rule of its own.
    {
      weight: 1,
      arbitrary: fc.record({
        entry: entryArb.map<ValueOf<typeof entryArb>>((e) => ({ ...e, state: 'not_found', saidYes: true })),
        seen: fc.constant(false),
      }),
    },
  ),
  unsettled: fc.oneof(
    { weight: 3, arbitrary: fc.constant<Array<ValueOf<typeof entryArb>>>([]) },
    {
      weight: 2,
      arbitrary: fc.array(
        entryArb.map<ValueOf<typeof entryArb>>((e) => ({ ...e, state: 'unknown' })),
        {
          minLength: 1,
          maxLength: 2,
        },
      ),
    },
  ),
  // Redemptions that settled while no popup showed them (told at this opening), and whether an
  // earlier opening has recorded what it saw at all (an install from before that record tells none).
  settled: fc.oneof(
    { weight: 4, arbitrary: fc.constant<Array<ValueOf<typeof entryArb>>>([]) },
    {
      weight: 1,
      arbitrary: fc.array(
        entryArb.chain((e) =>
          fc.constantFrom<LedgerState>('done', 'failed', 'not_found').map((state) => ({ ...e, state })),
        ),
        { minLength: 1, maxLength: 2 },
      ),
    },
  ),
  seenRecord: weighted([4, true], [1, false]),
  samples: fc.array(
    fc.record({
      days: fc.integer({ min: 0, max: 60 }),
      points: fc.integer({ min: 0, max: 5_000 }),
      tentative: weighted([5, false], [1, true]),
    }),
    { maxLength: 5 },
  ),
  questions: fc.option(fc.nat(4), { nil: null }),
});

export type Snapshot = ValueOf<typeof snapshotArb>;

/** What the snapshot means, worked out once for storing it and for the oracle. */
function facts(s: Snapshot) {
  const specs: Array<ValueOf<typeof rewardArb>> = [];
  for (const r of s.rewards) {
    const before = specs.at(-1);
    specs.push(r.twin && before ? { ...before, image: r.image } : r);
  }
  const rewards = specs.map((r, i) => rewardOf(i + 1, r));
  const live = s.session === 'key' || s.session === 'sign-in';
  const goalIndex = s.goal === null ? null : s.goal === 'gone' ? -1 : s.goal % Math.max(1, rewards.length);
  const goalReward = goalIndex === null || goalIndex < 0 ? undefined : rewards[goalIndex];
  const goal =
    goalIndex === null
      ? null
      : {
          account: ACCOUNT,
          rewardId: goalReward?.id ?? rid(999),
          rewardName: goalReward?.name ?? 'Gone Voucher',
          setAt: NOW - DAY,
        };
  const target = (t: ValueOf<typeof targetArb>): Reward | undefined =>
    t === 'goal' ? goalReward : rewards.length ? rewards[t % rewards.length] : undefined;
  const entry = (e: ValueOf<typeof entryArb>, n: number): LedgerEntry => {
    const reward = target(e.reward);
    return {
      requestId: `request-${n}`,
      rewardId: reward?.id ?? rid(998),
      rewardName: reward?.name ?? 'Old Voucher',
      points: reward?.reward_point_cost ?? 500,
      startedAt: NOW - e.age * 1_000,
      state: e.state,
      ...(e.saidYes ? { answer: 'success' as const } : {}),
    };
  };
  const ledger = s.outcome && entry(s.outcome.entry, 0);
  const unsettled = s.unsettled.map((e, i) => entry(e, i + 1));
  // The card shows the entry unless an earlier opening saw it settled (redeem/outcome-seen-item.ts).
  const isSettled = (e: LedgerEntry) => ['done', 'failed', 'not_found'].includes(e.state);
  const outcome = ledger && !(s.outcome!.seen && isSettled(ledger)) ? ledger : null;
  const checking = unsettled.filter((e) => e.requestId !== outcome?.requestId);
  const settled = s.settled.map((e, i) => entry(e, 10 + i));
  // Told once: only where an earlier opening recorded what it saw, and none of these was among it.
  const told = s.seenRecord ? settled : [];
  // Two gift cards of one brand at one value and one points cost are one choice in the brand's
  // picker (the generator gives no countries): a hold on either holds the one shown.
  const alike = (a: Reward, b: Reward) =>
    a.meta_data?.brand_name !== undefined &&
    a.meta_data.brand_name === b.meta_data?.brand_name &&
    a.cost === b.cost &&
    a.cost_currency === b.cost_currency &&
    a.reward_point_cost === b.reward_point_cost;
  const holding = (ids: RewardId[]) =>
    new Set([
      ...ids,
      ...rewards.filter((r) => rewards.some((h) => ids.includes(h.id) && alike(h, r))).map((r) => r.id),
    ]);
  const held = holding([
    ...(outcome?.state === 'unknown' ? [outcome.rewardId] : []),
    ...checking.map((e) => e.rewardId),
  ]);
  // The panel said yes and the history never showed it: its card says to contact the panel before
  // redeeming it again, so while the card is in view its reward's Redeem is held too.
  // So is one told at this opening that says so.
  const contact = holding(
    [outcome, ...told].flatMap((e) => (e?.state === 'not_found' && e.answer === 'success' ? [e.rewardId] : [])),
  );
  const cached = s.cache === 'view';
  const samples = [...s.samples]
    .sort((a, b) => b.days - a.days)
    .map((x): BalanceSample => ({
      at: NOW - x.days * DAY - 1_000,
      points: x.points,
      ...(x.tentative ? { tentative: true } : {}),
    }));
  return {
    rewards,
    live,
    goal,
    goalReward,
    ledger,
    unsettled,
    outcome,
    checking,
    settled,
    told,
    held,
    contact,
    cached,
    samples,
  };
}

export async function store(s: Snapshot): Promise<void> {
  const f = facts(s);
  const session =
    s.session === 'key' || s.session === 'sign-in'
      ? { ...CONNECTED, signedIn: s.session === 'sign-in' }
      : s.session === 'disconnected'
        ? { ...CONNECTED, connected: false }
        : { ...CONNECTED, rejected: true, signedIn: s.session === 'rejected-sign-in' };
  const cache = {
    data: {
      rewards: f.rewards,
      balance:
        s.balance === 'unread'
          ? { points: null, source: 'unread' as const }
          : s.balance === null
            ? { points: null, source: 'unknown' as const }
            : { points: s.balance, source: 'rewards' as const },
    },
    fetchedAt: REWARDS_READ_AT,
  };
  await sessionItem.setValue(session);
  if (s.cache !== 'no view')
    await popupViewItem.setValue({
      rewards: f.cached ? rewardsPart(cache) : null,
      latest: null,
      profile:
        s.questions === null
          ? null
          : { open: s.questions, total: 8, first: s.questions ? 'PETS' : null, fetchedAt: NOW - 60_000 },
      goal: f.goal && goalPart(f.goal, f.goalReward),
    });
  const idle = { loading: false, error: null, attemptedAt: 0 };
  await syncItem.setValue({
    rewards: { loading: s.loading, error: s.error, attemptedAt: NOW - 1_000 },
    history: idle,
    profile: idle,
  });
  if (f.ledger) await ledgerItem.setValue(f.ledger);
  if (s.outcome?.seen && f.ledger) await outcomeSeenItem.setValue(f.ledger.requestId);
  await unsettledItem.setValue(f.unsettled);
  await settledItem.setValue(f.settled);
  if (s.seenRecord) await settledSeenItem.setValue([]);
  if (f.goal) await goalItem.setValue(f.goal);
  await balanceHistoryItem.setValue(f.samples);
}

/** Text as read: bidirectional isolates and marks (utils/qty.ts) are not seen, runs of space are one. */
export const norm = (text: string | null | undefined) =>
  (text ?? '')
    .replace(/[\u2066-\u2069\u200e\u200f]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** What is on screen of `el`'s text: not what is `hidden`, nor the inside of a closed `<details>` but its summary. */
function shownText(el: Element | null): string {
  if (!el) return '';
  const copy = el.cloneNode(true) as Element;
  copy.querySelectorAll('[hidden], details:not([open]) > :not(summary)').forEach((n) => n.remove());
  return norm(copy.textContent);
}

/** The accessible name, as a screen reader computes it for the roles the popup uses; ids are looked up in `root`. */
function nameOf(el: Element, root: ParentNode = el.ownerDocument): string {
  const label = el.getAttribute('aria-label');
  if (label !== null) return norm(label);
  const ids = el.getAttribute('aria-labelledby');
  if (ids)
    return norm(
      ids
        .split(/\s+/)
        .map((id) => root.querySelector(`[id="${id}"]`)?.textContent ?? '')
        .join(' '),
    );
  if (el.id && ['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName)) {
    const forIt = root.querySelector(`label[for="${el.id}"]`);
    if (forIt) return norm(forIt.textContent);
  }
  return ['BUTTON', 'A', 'SUMMARY', 'H1', 'H2', 'H3', 'OPTION', 'LABEL'].includes(el.tagName)
    ? norm(el.textContent)
    : '';
}

/** Whether `el` is out of sight and out of the accessibility tree: itself or an ancestor `hidden`. */
const isHidden = (el: Element) => el.closest('[hidden]') !== null;

const PERCEIVED =
  'button, select, input, a[href], summary, details, progress, option, [role], [id], h1, h2, h3, section, main, header';

/**
 * What a panelist perceives of a page: its text, and each control, landmark, heading or element an
 * id points at, with its accessible name, every `aria-*` state, `hidden`, `disabled`, a control's
 * value, and which of them has focus.
 */
export function perceive(root: Element): { text: string; nodes: string[]; focus: string } {
  const nodes = Array.from(root.querySelectorAll(PERCEIVED), (el) => {
    const aria = Array.from(el.attributes)
      .filter((a) => a.name.startsWith('aria-') && a.name !== 'aria-label' && a.name !== 'aria-labelledby')
      .map((a) => `${a.name}=${a.value}`)
      .sort();
    const control = el as HTMLInputElement;
    const value = ['SELECT', 'INPUT', 'PROGRESS', 'OPTION'].includes(el.tagName)
      ? ` value=${String(control.value)}`
      : '';
    const flags = [
      isHidden(el) ? 'hidden' : '',
      control.disabled === true ? 'disabled' : '',
      el.tagName === 'OPTION' && (el as HTMLOptionElement).selected ? 'selected' : '',
    ].filter(Boolean);
    const role = el.getAttribute('role');
    return `${el.tagName.toLowerCase()}${role ? `[${role}]` : ''}${el.id ? `#${el.id}` : ''} “${nameOf(el, root)}”${value} ${[...aria, ...flags].join(' ')}`.trim();
  });
  const active = root.ownerDocument.activeElement;
  const focus =
    active && root.contains(active) ? `${active.tagName.toLowerCase()} “${nameOf(active, root)}”` : 'outside';
  return { text: norm(root.textContent), nodes, focus };
}

/** The words a failed read is told in, by its kind (design §6, "Errors"): the rule, not the popup's model of it. */
function failureWords(error: AppError): { reason: string; next: string | null } {
  const panel = settings.panelName;
  const ours = error.kind === 'unexpected' && !error.endpoint && !error.status;
  const reason = ours
    ? error.message
    : ({
        network: t('failReach', panel),
        timeout: t('failSlow', panel),
        server: t('failProblem', panel),
        rate_limited: t('failBusy', panel),
      }[error.kind as string] ?? t('failOther', panel));
  const next =
    error.kind !== 'rate_limited'
      ? null
      : error.retryAfterSeconds
        ? tp('stepRetryInSeconds', error.retryAfterSeconds)
        : t('stepRetryInAMinute');
  return { reason: norm(reason), next: next && norm(next) };
}

/**
 * What the snapshot says must be on `root` (the first frame as painted, `frame`, or App), as a list
 * of what is not: the page for the session, the balance or the last one known, a failure in its
 * own words with what to do next, the refresh running, the rows with each Redeem enabled exactly
 * when it may be used, the goal's Redeem held back with its reward's redemption, a goal named "no
 * longer offered" only when it is not listed, the open questions, and (App) the outcome card and the
 * redemptions still being checked. Read from storage's rules, not the popup's model.
 */
export function mustShow(s: Snapshot, root: Element, frame: boolean): string[] {
  const f = facts(s);
  const wrong: string[] = [];
  const expect = (ok: boolean, what: string) => {
    if (!ok) wrong.push(what);
  };
  const text = norm(root.textContent);
  const has = (words: string, what: string) =>
    expect(text.includes(norm(words)), `${what}: “${norm(words)}” not shown`);
  const panel = settings.panelName;
  expect(norm(root.querySelector('h1')?.textContent) === norm(panel), 'the header names the panel');
  if (!f.live) {
    const rejected = s.session.startsWith('rejected');
    expect(
      norm(root.querySelector('#connect-title')?.textContent) === norm(t(rejected ? 'reconnectTitle' : 'welcomeTitle')),
      'the prompt’s title',
    );
    has(
      rejected
        ? s.session === 'rejected-sign-in'
          ? t('signInExpired')
          : t('keyRefusedText', panel)
        : t('welcomeText', panel),
      'the prompt',
    );
    expect(!root.querySelector('.hdr-balance'), 'no balance without a connection');
    return wrong;
  }
  // The balance, or the last one a second read backed, or none.
  const balance = root.querySelector('.hdr-balance');
  const lastKnown = f.samples.filter((x) => !x.tentative).at(-1);
  const unread = f.cached && s.balance === 'unread';
  if (f.cached && s.balance !== 'unread')
    expect(
      norm(balance?.textContent) === norm(s.balance === null ? t('balanceUnknown') : tp('balancePoints', s.balance)),
      'the balance',
    );
  else if (lastKnown) {
    expect(norm(balance?.textContent) === norm(tp('balancePoints', lastKnown.points)), 'the last known balance');
    has(t('lastKnownBalance'), 'the last known balance is said to be so');
  } else expect(!balance, 'no balance when none was read');
  // A balance not read beside the rewards is said so, with why when a failure is stored: never
  // "Balance unknown", which says the panel shows none (design §5: unknown stays unknown).
  if (unread) {
    expect(!text.includes(norm(t('balanceUnknown'))), 'a balance not read is not “Balance unknown”');
    // With a failure, how old the rewards shown are, as over any stale data (the clock is NOW).
    has(
      s.error
        ? t('balanceUnreadWhyAt', failureWords(s.error).reason, formatRelative(REWARDS_READ_AT, NOW))
        : t('balanceUnread'),
      'the balance not read',
    );
    has(t('retry'), 'a way to read it again');
  }
  // A failed read: in the header over cached data, else in a card; in plain words, with what to do next.
  const alerts = Array.from(root.querySelectorAll('header [role="alert"], .notice-error[role="alert"]'), shownText);
  if (s.error) {
    const { reason, next } = failureWords(s.error);
    const where = f.cached ? 'header [role="alert"]' : '.notice-error[role="alert"]';
    const alert = shownText(root.querySelector(where));
    expect(alert.includes(reason), `the failure in its words (${s.error.kind}): “${reason}” not in “${alert}”`);
    if (next) expect(alert.includes(next), `what to do next (${s.error.kind}): “${next}” not in “${alert}”`);
    expect(!/HTTP \d/.test(alert), 'no HTTP code in the alert itself');
  } else expect(alerts.length === 0, `no failure told: ${alerts.join(' | ')}`);
  expect(
    root.querySelector('main')?.getAttribute('aria-busy') === String(s.loading),
    'the page is busy while a refresh runs',
  );
  // Rows: each Redeem enabled exactly when it may be used.
  const pending = f.outcome?.state === 'pending';
  const rows = Array.from(root.querySelectorAll('li.reward'));
  const showsRows =
    f.cached && f.rewards.length > 0 && !(frame && (f.outcome || f.checking.length > 0 || f.told.length > 0));
  expect(showsRows ? rows.length > 0 : rows.length === 0, `rows shown: ${rows.length}`);
  if (frame && showsRows)
    expect(rows.length <= FIRST_FRAME_ROWS, `the first frame paints its first screen of rows, not ${rows.length}`);
  for (const row of rows) {
    const redeem = row.querySelector<HTMLButtonElement>('button.btn-redeem');
    const reward = f.rewards.find((r) => nameOf(redeem!) === norm(t('redeemReward', r.name)));
    if (!reward) {
      wrong.push(`a row's Redeem names no listed reward: “${redeem && nameOf(redeem)}”`);
      continue;
    }
    // A cost the panel did not give, or one refused, is not offered at all (design §5: unknown stays unknown).
    const uncosted = reward.costRefused === true || reward.reward_point_cost === null;
    const short =
      typeof s.balance === 'number' && reward.reward_point_cost !== null && s.balance < reward.reward_point_cost;
    const blocked = uncosted || short || pending || f.held.has(reward.id) || f.contact.has(reward.id);
    expect(redeem!.disabled === blocked, `Redeem ${reward.name} ${blocked ? 'held back' : 'usable'}`);
    if (f.held.has(reward.id) && !uncosted && !short) has(t('heldBack'), `${reward.name} held back, saying why`);
    else if (f.contact.has(reward.id) && !uncosted && !short)
      has(t('heldContactPanel', settings.panelName), `${reward.name} held back until the panel is asked, saying why`);
  }
  // The goal.
  const goalCard = root.querySelector('.goal');
  if (f.goal && f.cached) {
    const gone = norm(t('goalGone', f.goal.rewardName));
    if (!f.goalReward) expect(norm(goalCard?.textContent).includes(gone), 'a goal no longer listed is said to be gone');
    else {
      expect(
        !norm(goalCard?.textContent).includes(gone),
        `a listed goal is not “no longer offered” (${f.goalReward.name})`,
      );
      const cost = f.goalReward.reward_point_cost;
      const affordable =
        !f.goalReward.costRefused && cost !== null && typeof s.balance === 'number' && s.balance >= cost;
      const button = goalCard?.querySelector<HTMLButtonElement>('button.btn-redeem');
      expect(!!button === affordable, `the goal's Redeem ${affordable ? 'offered' : 'not offered'}`);
      if (button)
        expect(
          button.disabled === (pending || f.held.has(f.goalReward.id) || f.contact.has(f.goalReward.id)),
          `the goal's Redeem held back with its reward's redemption`,
        );
    }
  } else expect(!goalCard, 'no goal card');
  // The open profile questions, with the way to the first.
  if (s.cache !== 'no view' && s.questions) {
    has(tp('openQuestions', s.questions), 'the open questions');
    expect(!!root.querySelector('a[href="options.html#answer-PETS"]'), 'the way to the first open question');
  }
  if (!frame) {
    expect(!!root.querySelector(`#${OUTCOME_ID}`) === !!f.outcome, 'the outcome card');
    expect(
      !!root.querySelector('.still-checking') === f.checking.length + f.told.length > 0,
      'the redemptions still being checked, or settled unseen',
    );
    for (const e of f.told)
      has(t('stillCheckingEntry', e.rewardName, clockTime(e.startedAt, NOW)), `${e.rewardName} told as settled`);
  }
  return wrong;
}

/** Preact's first render, after what main.tsx loads before it. */
async function loadApp(): Promise<void> {
  await preload(FIRST_FRAME_ITEMS);
  await Promise.all([preloadPrompt(), preloadOutcome(), preloadStillChecking()]);
}

export interface Counts {
  runs: number;
  /** Connected, with reward rows on App's page. */
  connectedWithRows: number;
  languages: Set<string>;
  errors: Set<string>;
  /** Connected, the rewards cached, the balance beside them not read. */
  unreadBalances: number;
}

export const newCounts = (): Counts => ({
  runs: 0,
  connectedWithRows: 0,
  languages: new Set(),
  errors: new Set(),
  unreadBalances: 0,
});

/**
 * The property: the first frame paints the snapshot; what Preact's takeover leaves of it is what
 * was painted; the taken-over page is what App renders alone; and each is what {@link mustShow} says.
 * Throws on the first difference, naming it.
 */
export async function framesAgree(s: Snapshot, counts?: Counts): Promise<void> {
  fakeBrowser.reset();
  installI18n(s.locale);
  await store(s);
  const stored = await fakeBrowser.storage.local.get(FIRST_FRAME_ITEMS.map((item) => item.key));
  const painted = document.createElement('div');
  const fresh = document.createElement('div');
  const again = document.createElement('div');
  document.body.append(painted, fresh, again);
  try {
    paintFirstFrame(painted, stored, Date.now());
    const frame = perceive(painted);
    const paintedElements = new Set(painted.querySelectorAll('*'));
    await loadApp();
    // Both renders before either's effects run: the app's own first render, and its takeover.
    render(<App />, fresh);
    const own = perceive(fresh);
    render(<App />, painted);
    const takenOver = perceive(painted);
    if (counts) {
      counts.runs += 1;
      if (fresh.querySelector('li.reward') && facts(s).live) counts.connectedWithRows += 1;
      counts.languages.add(s.locale);
      if (s.error) counts.errors.add(s.error.kind + (s.error.endpoint ? '' : ' (ours)'));
      if (facts(s).live && facts(s).cached && s.balance === 'unread') counts.unreadBalances += 1;
    }
    // What Preact added below where the frame ended goes: what is left is what was painted.
    for (const el of Array.from(painted.querySelectorAll('*'))) {
      if (!paintedElements.has(el) && !Array.from(paintedElements).some((p) => el.contains(p))) el.remove();
    }
    const kept = perceive(painted);
    const problems = [
      ...diff('Preact’s takeover changed what was painted', frame, kept),
      ...diff('the taken-over page is not App’s own', takenOver, own),
    ];
    if (problems.length) throw new Error(problems.join('\n'));
    // The first frame as painted, again (the takeover changed the first copy), against the oracle.
    paintFirstFrame(again, stored, Date.now());
    const wrong = [
      ...mustShow(s, again, true).map((w) => `first frame: ${w}`),
      ...mustShow(s, fresh, false).map((w) => `app: ${w}`),
    ];
    if (wrong.length) throw new Error(wrong.join('\n'));
  } finally {
    render(null, painted);
    render(null, fresh);
    painted.remove();
    fresh.remove();
    again.remove();
  }
}

function diff(what: string, a: ReturnType<typeof perceive>, b: ReturnType<typeof perceive>): string[] {
  const out: string[] = [];
  if (a.text !== b.text) out.push(`${what}: text\n  “${a.text}”\n  “${b.text}”`);
  const n = Math.max(a.nodes.length, b.nodes.length);
  for (let i = 0; i < n; i += 1) {
    if (a.nodes[i] !== b.nodes[i]) {
      out.push(`${what}: element ${i}\n  ${a.nodes[i] ?? '(none)'}\n  ${b.nodes[i] ?? '(none)'}`);
      break;
    }
  }
  if (a.focus !== b.focus) out.push(`${what}: focus ${a.focus} / ${b.focus}`);
  return out;
}
