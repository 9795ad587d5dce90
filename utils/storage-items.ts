import { DEFAULT_PREFERENCES, type Preferences } from './preferences';
import { newestFirst } from './history-order';
import { definePagedItem } from './paged-item';
import { defineItem, type StorageItem } from './storage-item';
import type { BalanceSample, PointsReturn } from './balance-trend';
import type { Cached } from './cached';
export type { RewardsData } from './stored-catalogue';
import { catalogueForm, type RewardsData } from './stored-catalogue';
import type { AppError } from './errors';
import type { RewardHtml } from './reward-html';
import type { RedemptionId, RedemptionKey, RewardId } from './ids';
import type { Balance, Redemption, Reward, StoredValues, VariableDefinition } from './types';

/**
 * Everything pages render comes from these items: the background writes them, pages read them at
 * once and watch them. The token is not here: it lives in the background's own item
 * (entrypoints/background/store/credentials.ts), which no page imports.
 */

export interface SessionInfo {
  connected: boolean;
  baseUrl: string;
  /** Origin of baseUrl, shown to the panelist. */
  origin: string;
  /** Last 4 characters of the token, so the panelist can tell which one is in use. */
  tokenHint: string;
  /** Set when the server stopped accepting the token (401; a 403 is `not_allowed`, not this): the pages ask to reconnect. */
  rejected: boolean;
  /** Connected through "Sign in" (OAuth) rather than a pasted token: reconnecting means signing in again. */
  signedIn?: boolean;
  /**
   * The session's id, made at connect: every session-scoped item belongs to the session
   * this names, and the background writes them only while it is the active one. Absent when
   * disconnected.
   */
  id?: string;
}

export const DISCONNECTED: SessionInfo = { connected: false, baseUrl: '', origin: '', tokenHint: '', rejected: false };

export interface ProfileData {
  definitions: VariableDefinition[];
  values: StoredValues;
  /**
   * Names whose stored answer the panel holds in a shape no value can mean (utils/stored-values.ts):
   * an answer, never "none stored" nor open. Absent when there is none (and in older caches).
   */
  unreadable?: string[];
}

export type SyncArea = 'rewards' | 'history' | 'profile';

/** The last attempt to refresh an area: pages show "loading", or the error beside stale data. */
export interface SyncState {
  loading: boolean;
  error: AppError | null;
  attemptedAt: number;
}

export type SyncStates = Record<SyncArea, SyncState>;

const IDLE: SyncState = { loading: false, error: null, attemptedAt: 0 };

/**
 * - `pending`: the redeem request is in flight.
 * - `done`: the panel confirmed it, or the history shows it.
 * - `failed`: the panel refused it with a 4xx: nothing was charged.
 * - `unknown`: no clear answer (time-out, dropped connection, 5xx, unexpected body); the history is
 *   being checked on alarms (`checks`). Never told as "did not go through".
 * - `not_found`: the last scheduled check (about 30 min after sending) still found nothing in the
 *   history: it most likely did not go through, and the reward may be redeemed again.
 */
export type LedgerState = 'pending' | 'done' | 'failed' | 'unknown' | 'not_found';
export type RedemptionAnswer = 'success' | 'refused' | 'unclear';

/** The redemption ledger (one entry: the latest redemption the panelist started). */
export interface LedgerEntry {
  requestId: string;
  rewardId: RewardId;
  rewardName: string;
  points: number | null;
  startedAt: number;
  /**
   * Its baseline: the redemptions of its reward in a history read that left after Confirm was
   * pressed, each as a whole (id, reward, created_at: utils/ids.ts), so only a redemption new to
   * them is taken for it, whatever its timestamp; a reused id with another date is new. Dropped
   * once it settles: a settled Confirm matches nothing.
   */
  baseline?: RedemptionKey[];
  /**
   * The baseline as a version before whole redemptions kept it: every id of the history, of any
   * reward. Still honoured for a Confirm of that version: a redemption with one of these ids is not its own.
   */
  knownRedemptionIds?: RedemptionId[];
  /** Sent as the request's `Idempotency-Key`: one per Confirm, so a panel can tell a copy from a second redeem. */
  idempotencyKey?: string;
  state: LedgerState;
  /**
   * What the panel answered this Confirm's request, once it did: only a hint that chooses the words
   * while a history read taken after it decides. An answer speaks for one copy of the request (a
   * browser or proxy may deliver it twice), so none settles the Confirm on its own: `success` still
   * waits for the history to show the redemption, `refused` (a 4xx) for it to show none, and
   * `unclear` (time-out, network, 5xx, 409, an unexpected body) goes to the scheduled checks.
   */
  answer?: RedemptionAnswer;
  /**
   * When that answer came (or was known lost): a history read asked for before it may predate a
   * copy that committed, so it can find the redemption but never rule it out.
   */
  answeredAt?: number;
  finishedAt?: number;
  error?: AppError;
  /** The history entry that records it, when found. */
  redemption?: Redemption | null;
  /**
   * The balance read as it settled (done, failed, not_found; null when the panel shows none). Absent
   * when it could not be read: unknown, never "unmoved" (utils/points-taken.ts weighs that).
   */
  balanceAfter?: number | null;
  /**
   * The balance read just before the request was sent, by a read that left after Confirm was
   * pressed; null when the panel shows none. A Confirm is not sent when that read fails
   * (redemption/before-sending.ts); absent when the catalogue was read but not the balance beside
   * it (no evidence either way); one an earlier version started may lack it, or hold null with
   * `balanceUnread` for a read that failed then.
   */
  balanceBefore?: number | null;
  /**
   * How the balance moved from just before sending to the read after the answer (after − before),
   * when both reads gave one and it moved: evidence as the history is (utils/points-taken.ts). A
   * refusal is "nothing charged" only without it.
   */
  balanceMoved?: number;
  /**
   * The balance before sending or with the read after the answer could not be read: no evidence
   * that it did not move, so a refusal is ruled "nothing charged" only by a scheduled check.
   */
  balanceUnread?: true;
  /**
   * While `unknown`: history checks made so far, when the next one is due and when the last one read
   * the history (epoch ms); `unreadAt`, when a scheduled check could not read it since (cleared by
   * the next one that does).
   */
  checks?: { done: number; nextAt: number | null; lastAt: number | null; unreadAt?: number };
  /**
   * Further history entries of this reward that appeared for this one Confirm (a browser or proxy
   * re-sent the request and the panel recorded it again), each a whole redemption (utils/ids.ts; an
   * earlier version kept ids alone, still counted): the panelist is told to have them reversed.
   */
  duplicates?: RedemptionKey[];
}

/**
 * A Confirm the panel recorded more than once, kept for the options page's history: which
 * redemptions those are, so each row can say so. Kept while the history shows at least two of them
 * (redemption/machine.ts, recordsShown): once the panel reverses the copies, it goes.
 */
export interface DuplicateRecord {
  requestId: string;
  rewardName: string;
  points: number | null;
  /**
   * Every redemption the one Confirm made, the first included, each whole (id, reward, instant:
   * utils/ids.ts): a panel numbering max + 1 gives a reversed copy's id to the next redemption,
   * which is no copy.
   */
  redemptions?: RedemptionKey[];
  /** As an earlier version kept them: ids alone, read as whole redemptions at the next history read. */
  redemptionIds?: RedemptionId[];
}

export { DEFAULT_PREFERENCES, REFRESH_CHOICES, type Preferences } from './preferences';

/** The reward a panelist saves for, tagged with the account it was set for. */
export interface Goal {
  /** {@link accountOf} the session it was set in: another account never shows it. */
  account: string;
  rewardId: RewardId;
  rewardName: string;
  setAt: number;
}

/** What the background last saw, to tell a change from the first sync (the background's own). */
export interface NotifyState {
  /** Redemption id → its state; null until the first history read of this session. */
  states: Record<string, string> | null;
  /** The goal (reward and when it was set) and whether the last balance read could afford it; null before the first read. */
  goal: { key: string; affordable: boolean } | null;
  /** Events already notified (newest last, a few hundred kept), so none is told twice. */
  told: string[];
}

export const sessionItem = defineItem<SessionInfo>('session', DISCONNECTED);
/** The catalogue, its rewards kept as one JSON text (utils/stored-catalogue.ts says why). */
export const rewardsItem = defineItem<Cached<RewardsData> | null>('cache:rewards', null, catalogueForm);
/**
 * The redemption history, newest first, in pages (utils/paged-item.ts): the options page reads the
 * pages it shows, not the whole history, which may be thousands long.
 */
export const historyItem = definePagedItem<Redemption>('cache:history', newestFirst);
export const profileItem = defineItem<Cached<ProfileData> | null>('cache:profile', null);
export const syncItem = defineItem<SyncStates>('sync', { rewards: IDLE, history: IDLE, profile: IDLE });
export const ledgerItem = defineItem<LedgerEntry | null>('ledger', null);
/**
 * Unknown outcomes the ledger no longer shows (another redemption started, or the panelist closed
 * the card): still checked against the history until settled. The background's own.
 */
export const unsettledItem = defineItem<LedgerEntry[]>('ledger:unsettled', []);
/**
 * Recent settled outcomes the ledger no longer shows, newest last (a few kept): the redemptions
 * they claimed stay claimed, and the panelist is owed word of those that settled unseen.
 */
export const settledItem = defineItem<LedgerEntry[]>('ledger:settled', []);
/** Confirms the panel recorded more than once (oldest first): the history marks their rows. */
export const duplicatesItem = defineItem<DuplicateRecord[]>('ledger:duplicates', []);
export const preferencesItem = defineItem<Preferences>('preferences', DEFAULT_PREFERENCES);
/**
 * The install's welcome tab was opened (entrypoints/background/welcome.ts): a browser that reports
 * an install again without one (Chromium loading an unpacked build from its command line, at every
 * start) opens none. The device's, not a session's: removed only with the extension.
 */
export const welcomedItem = defineItem<boolean>('welcomed', false);
/** Unsaved profile edits, kept until saved or discarded, so they outlive the page. Owned by the options page. */
export const profileDraftItem = defineItem<StoredValues>('draft:profile', {});
/**
 * Set by the background when connecting another account discarded unsaved profile edits typed for
 * the previous one (they never reach another account): the options page tells the panelist, then removes it.
 */
export const draftDiscardedItem = defineItem<{ count: number; at: number } | null>('notice:draft-discarded', null);

export const goalItem = defineItem<Goal | null>('goal', null);
/** Written by the background only; survives restarts, goes with the account. */
export const balanceHistoryItem = defineItem<BalanceSample[]>('balance:history', []);
export const notifyStateItem = defineItem<NotifyState>('notify:state', { states: null, goal: null, told: [] });

/** Which account a session is, as far as pages can tell: the panel and the token's last characters. */
export function accountOf(session: Pick<SessionInfo, 'baseUrl' | 'tokenHint'>): string {
  return `${session.baseUrl}|${session.tokenHint}`;
}

/**
 * The panel's validators (`ETag`, `Last-Modified`) for each read of an area's last refresh, with the
 * `fetchedAt` of the cached copy they came with: sent back so unchanged data costs a 304 without a
 * body. The background's own. Removed with the caches, so a 304 only ever confirms this account's copy.
 */
export interface AreaValidators {
  fetchedAt: number;
  /** The area's write epoch of that read (entrypoints/background/sync/epochs.ts): no 304 across a write. */
  epoch: number;
  reads: Record<string, { etag?: string; lastModified?: string }>;
}

export const validatorItems: Record<SyncArea, StorageItem<AreaValidators | null>> = {
  rewards: defineItem<AreaValidators | null>('validators:rewards', null),
  history: defineItem<AreaValidators | null>('validators:history', null),
  profile: defineItem<AreaValidators | null>('validators:profile', null),
};

/**
 * What the popup's first frame needs, a few KiB whatever the catalogue's size: kept by the
 * background from the two caches (entrypoints/background/popup-view.ts), so the popup's first read
 * never parses the whole catalogue or history. A part is null while its cache is absent.
 */
export interface PopupView {
  rewards: {
    balance: Balance;
    fetchedAt: number;
    /** How many rewards the whole catalogue holds. */
    total: number;
    /** How many brands (utils/reward-groups.ts), and the kinds the type filter offers; absent in a view older than brands. */
    brands?: number;
    kinds?: KindCount[];
    /**
     * The rewards of the first brands in the list's order, without their HTML (details read it
     * apart): each brand's first reward whole, its other values without their images, up to a few.
     */
    first: Reward[];
    /** The reward the panelist is closest to, from the whole catalogue. */
    next: Reward | null;
  } | null;
  latest: Redemption | null;
  /**
   * Open profile questions, from the profile cache: null while it is absent, so the popup
   * never guesses; absent in a view written before there was a profile part.
   */
  profile?: ProfileSummary | null;
  /**
   * The goal's reward as the catalogue has it (`reward` null: no longer offered), so the goal header
   * needs no catalogue to be in the first frame. Only for the goal of that `rewardId`.
   */
  goal?: { rewardId: RewardId; reward: Reward | null } | null;
  /**
   * Points the panel gave back for redemptions it refunded (not earned), from the history: the
   * popup's earning figure and pace leave them out. Absent in a view written before.
   */
  returns?: PointsReturn[];
}

/** How many rewards of a kind (utils/reward-groups.ts kindKey) the catalogue holds. */
export interface KindCount {
  key: string;
  count: number;
}

/** The profile's completeness as the popup and the badge need it (utils/profile-completeness.ts). */
export interface ProfileSummary {
  /** Writable questions without an answer. */
  open: number;
  total: number;
  /** The first open question's name, where "Answer now" starts; null when none is open. */
  first: string | null;
  /** When the profile was read. */
  fetchedAt: number;
}
export const popupViewItem = defineItem<PopupView | null>('view:popup', null);
/** The catalogue's provider HTML, each text once (utils/reward-html.ts); read when details open. */
export const rewardHtmlItem = defineItem<RewardHtml | null>('cache:reward-html', null);

/** A question the panel added since the last read: shown as "New" until answered or seen. */
export interface NewQuestion {
  name: string;
  /** The question's text when last read, for the notification. */
  text: string;
}

/**
 * What the background knows of the panel's questions in this session, tagged with the
 * account it belongs to; null until the session's first profile read. The background's own: pages
 * read it and report a question seen with the `seeQuestions` message.
 */
export interface QuestionsRecord {
  /** {@link accountOf} the session: another account's record is never read as this one's. */
  account: string;
  /** Every variable name the panel has listed to this session, writable or not. */
  known: string[];
  /** New writable questions not answered or seen yet, in the order they appeared. */
  fresh: NewQuestion[];
}
export const questionsItem = defineItem<QuestionsRecord | null>('questions:new', null);

/**
 * Until when (epoch ms) the session's panel asked not to be asked again: its last 429 with
 * `Retry-After` (entrypoints/background/auth/panel-wait.ts). Stored, so a worker the browser stopped
 * and started again still waits; null when the panel asked for no wait.
 */
export const panelWaitItem = defineItem<number | null>('panel:wait', null);

/**
 * Every item scoped to a session (with the background's credentials, which live apart): emptied in
 * the same `storage.local.set` that switches the session, so none ever shows another session's data.
 */
export const SESSION_ITEMS: ReadonlyArray<StorageItem<unknown>> = [
  rewardsItem,
  historyItem,
  profileItem,
  syncItem,
  ledgerItem,
  unsettledItem,
  settledItem,
  duplicatesItem,
  profileDraftItem,
  draftDiscardedItem,
  goalItem,
  balanceHistoryItem,
  notifyStateItem,
  popupViewItem,
  rewardHtmlItem,
  questionsItem,
  panelWaitItem,
  ...Object.values(validatorItems),
];
/**
 * Of those, what reconnecting the same account keeps (a new token after a 401, the same token
 * again), with its Confirms (entrypoints/background/session/account-identity.ts decides, for all
 * alike). The history goes with them: it is what the Confirms are judged by, and the evidence the
 * next switch is judged on, so a history read that fails after this switch never leaves a third key
 * of the same account with nothing to prove it.
 */
export const SAME_ACCOUNT_ITEMS: ReadonlyArray<StorageItem<unknown>> = [
  historyItem,
  profileDraftItem,
  goalItem,
  balanceHistoryItem,
  notifyStateItem,
  questionsItem,
];
