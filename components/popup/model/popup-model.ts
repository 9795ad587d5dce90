import { defaultChoice, groupRewards, sortGroups } from '../../../utils/reward-groups';
import { FILTER_THRESHOLD } from '../../../utils/reward-view';
import type { AppError } from '../../../utils/errors';
import type { LedgerEntry } from '../../../utils/storage-items';
import { goalModel, type GoalModel } from './goal-model';
import { headerModel, type HeaderModel } from './header-model';
import { listModel, REWARDS_PAGE, type ListModel } from './list-model';
import { popupState, type PopupSnapshot } from './popup-state';
import { promptModel, type PromptModel } from './prompt-model';
import { rowModel, type RowModel } from './row-model';

/**
 * Rows the first frame paints: what the popup's first screen shows. The view's other rows come with
 * Preact, below them, so nothing painted moves; each row costs the first paint a few milliseconds.
 */
export const FIRST_FRAME_ROWS = 4;

/** The rewards page as the popup opens on it: what the first frame paints, in App's order. */
export interface RewardsPageModel {
  page: 'rewards';
  busy: boolean;
  header: HeaderModel;
  /** The earning figure and the goal; null while no rewards are cached (App shows neither then). */
  goal: GoalModel | null;
  /** SyncNotice's input: the card of a failed read while nothing is cached, else the quiet status. */
  notice: { error: AppError | null; loading: boolean };
  /** The outcome card of the latest redemption, when there is one to show. */
  outcome: LedgerEntry | null;
  /** Redemptions still being checked that the card no longer shows. */
  checking: readonly LedgerEntry[];
  /** Redemptions that settled unseen since the last opening, listed with them (popup-state.ts). */
  told: readonly LedgerEntry[];
  /** The list around its first rows; null while no rewards are cached. */
  list: ListModel | null;
  /** No rewards cached and no failure to tell: placeholder rows where the list will be. */
  skeleton: boolean;
  /** The list's first rows, each with its Redeem held back as App holds it. */
  rows: RowModel[];
}

export type PopupModel = { page: 'prompt'; header: HeaderModel; prompt: PromptModel } | RewardsPageModel;

type PageTop = Pick<RewardsPageModel, 'page' | 'busy' | 'header'>;

/**
 * Everything the popup shows as it opens, from one storage snapshot: the first-frame script paints
 * it (first-frame.tsx), and every decision in it is App's own (popup-state.ts), so the two frames
 * cannot disagree. Pure: the same snapshot and time give the same model. The page, its header and
 * the balance first; the rest of the rewards page as a function, so the first frame paints the
 * header before it works out the rows.
 */
export type PopupTop =
  Extract<PopupModel, { page: 'prompt' }> | (PageTop & { rest(): Omit<RewardsPageModel, keyof PageTop> });

export function popupTop(snapshot: PopupSnapshot, now: number): PopupTop {
  const state = popupState(snapshot);
  if (!state.live) {
    const { rejected, signedIn } = snapshot.session;
    return { page: 'prompt', header: headerModel({ now }), prompt: promptModel(rejected, signedIn) };
  }
  return {
    page: 'rewards',
    busy: state.loading,
    header: headerModel({ ...state.header, now, refreshable: true }),
    rest: () => pageRest(state, snapshot, now),
  };
}

/** The rewards page below its header, in App's order. */
function pageRest(
  state: ReturnType<typeof popupState>,
  snapshot: PopupSnapshot,
  now: number,
): Omit<RewardsPageModel, keyof PageTop> {
  const { balance, goalId, pending, held, contact } = state;
  const page = {
    goal: state.goal && goalModel({ ...state.goal, now }).model,
    notice: { error: state.rewards ? null : state.error, loading: state.loading && !state.rewards },
    outcome: state.outcome,
    checking: state.checking,
    told: state.told,
  };
  // Nothing cached yet, or no popup view (App then reads the catalogue, which the first frame never
  // does): the page as App first renders it, the header and the notice without a list.
  const view = snapshot.view?.rewards;
  if (!view || !state.list) return { ...page, list: null, skeleton: state.skeleton, rows: [] };
  // The view holds the first brands' rewards in the list's order (entrypoints/background/popup-view.ts).
  const groups = sortGroups(groupRewards(view.first), balance, 'afford');
  const visible = Math.min(REWARDS_PAGE, groups.length);
  return {
    ...page,
    list: listModel({
      count: groups.length,
      total: view.total,
      brands: view.brands ?? groups.length,
      kinds: view.kinds ?? [],
      filterable: view.total > FILTER_THRESHOLD,
      query: '',
      sort: 'afford',
      kind: '',
      shown: view.total,
      visible,
      // App has only the view's rows, so the whole catalogue is there to show (RewardList's onWantAll).
      available: view.brands ?? groups.length,
    }),
    skeleton: false,
    rows: groups.slice(0, Math.min(visible, FIRST_FRAME_ROWS)).map((group) =>
      rowModel({
        group,
        choice: defaultChoice(group, goalId),
        balance,
        blocked: pending,
        goal: goalId,
        held,
        contact,
      }),
    ),
  };
}
