import { goalView } from '../../utils/goal-view';
import { t } from '../../utils/i18n';
import { defaultChoice, groupRewards, kindName, sortGroups } from '../../utils/reward-groups';
import { FILTER_THRESHOLD } from '../../utils/reward-view';
import type { StorageItem } from '../../utils/storage-item';
import {
  accountOf,
  balanceHistoryItem,
  goalItem,
  ledgerItem,
  popupViewItem,
  sessionItem,
  syncItem,
  unsettledItem,
} from '../../utils/storage-items';
import { fill, shapeOf, type Model } from './frame-fill';
import { goalModel } from './goal-model';
import { goalRewards } from './goal-rewards';
import { headerModel } from './header-model';
import { listModel, REWARDS_PAGE } from './list-model';
import { outcomeSeenItem, outcomeShown } from './outcome-seen-item';
import { whenLoaded } from './photo';
import { promptModel } from './prompt-model';
import { rowModel } from './row-model';
import { syncStatusModel } from './status-model';

/**
 * What the popup's first frame reads, in ONE storage.local.get (entrypoints/first-frame.ts), and what
 * main.tsx preloads for Preact's first render: the same items, so both frames show the same state.
 */
export const FIRST_FRAME_ITEMS = [
  sessionItem,
  popupViewItem,
  syncItem,
  ledgerItem,
  outcomeSeenItem,
  unsettledItem,
  goalItem,
  balanceHistoryItem,
] as const;

/** The parts a template is rendered for (components/popup/frame-templates.tsx), by name. */
export type PartName = 'page' | 'prompt-page' | 'header' | 'prompt' | 'goal' | 'status' | 'list' | 'row';

/**
 * Rows the first frame paints: what the popup's first screen shows. The view's other rows come with
 * Preact, below them, so nothing painted moves; each row costs the first paint a few milliseconds.
 */
export const FIRST_FRAME_ROWS = 4;

/** Where a part's children go in its template. */
export const SLOT = 'ff-slot';

/**
 * When the parts below the header are painted: `rest` runs them. By default at once, in the same
 * frame; the first-frame script puts them one frame later, so the header and the balance are on
 * screen without waiting for the rows' cloning, style and layout (nothing painted moves: they go
 * into the page's empty main, below the header).
 */
export type Later = (rest: () => void) => void;

/**
 * Paints the popup's first frame into `root` from what storage holds (`stored`: key → value, as
 * storage.local.get answers), without Preact: each part is a copy of the template its model fits,
 * filled with the model's text. It goes down the page as App renders it and stops at the first part
 * no template fits (the outcome of a redemption, those still being checked, an error card, sign-in): Preact adds those below
 * what is painted, so nothing painted moves. Returns the number of parts painted.
 */
export function paintFirstFrame(
  root: Element,
  stored: Record<string, unknown>,
  now: number,
  later: Later = (rest) => rest(),
): number {
  const templates = new Map<string, HTMLTemplateElement>();
  for (const template of root.ownerDocument.querySelectorAll<HTMLTemplateElement>('template[data-part]')) {
    templates.set(`${template.dataset.part} ${template.dataset.shape}`, template);
  }
  let painted = 0;
  /** A filled copy of the part's template for `model`, or null when none fits. */
  const part = (name: PartName, model: Model): DocumentFragment | null => {
    const template = templates.get(`${name} ${shapeOf(model)}`);
    if (!template) return null;
    const copy = template.content.cloneNode(true) as DocumentFragment;
    fill(copy, model);
    painted += 1;
    return copy;
  };
  /** Puts `children` into the fragment's slots in order; an empty slot goes. */
  const slot = (into: DocumentFragment, ...children: Array<Node | null>) => {
    into.querySelectorAll(SLOT).forEach((s, i) => (children[i] ? s.replaceWith(children[i]) : s.remove()));
    return into;
  };
  const get = <T>(item: StorageItem<T>): T => item.fromStored(stored[item.key]);
  const session = get(sessionItem);
  const live = session.connected && !session.rejected;

  if (!live) {
    const page = part('prompt-page', {});
    const header = part('header', headerModel({ now }));
    if (!page || !header) return 0;
    root.replaceChildren(slot(page, header, part('prompt', promptModel(session.rejected, session.signedIn))));
    return painted;
  }

  const view = get(popupViewItem);
  const rows = view?.rewards;
  // Without the view App reads the whole catalogue, which the first frame never does.
  if (!rows) return 0;
  const state = get(syncItem).rewards;
  const balance = rows.balance.points;
  const ledger = get(ledgerItem);
  const shown = ledger && outcomeShown(ledger, get(outcomeSeenItem)) ? ledger : null;
  const pending = shown?.state === 'pending';
  // Redemptions still being checked off the card: listed above the rewards by Preact.
  const checking = get(unsettledItem).length > 0;
  const goal = get(goalItem);
  const account = accountOf(session);
  const goalRows = goalRewards(view, goal);
  const header = part(
    'header',
    headerModel({
      now,
      live,
      balance: rows.balance,
      rewards: rows.next ? [rows.next] : [],
      listed: rows.first,
      fetchedAt: rows.fetchedAt,
      error: state.error,
      loading: state.loading,
      refreshable: true,
      questions: view.profile,
      goal: goalView({ goal, account, rewards: goalRows, points: balance }),
    }),
  );
  const page = part('page', { busy: String(state.loading === true) });
  if (!page || !header) return 0;

  const doc = root.ownerDocument;
  const goalParts = goalModel({
    goal,
    account,
    rewards: goalRows,
    points: balance,
    samples: get(balanceHistoryItem),
    returns: view.returns,
    blocked: pending ? t('waitForRedemption') : null,
    now,
  }).m;
  const list = () => {
    // The view holds the first brands' rewards in the list's order (entrypoints/background/popup-view.ts).
    const groups = sortGroups(groupRewards(rows.first), balance, 'afford');
    const visible = Math.min(REWARDS_PAGE, groups.length);
    const kinds = rows.kinds ?? [];
    const m = listModel({
      count: groups.length,
      total: rows.total,
      brands: rows.brands ?? groups.length,
      kinds: kinds.length > 1,
      filterable: rows.total > FILTER_THRESHOLD,
      query: '',
      sort: 'afford',
      kind: '',
      shown: rows.total,
      visible,
      // App has only the view's rows, so the whole catalogue is there to show (RewardList's onWantAll).
      available: rows.brands ?? groups.length,
    });
    const frame = part('list', m);
    if (!frame || m.empty !== null) return frame;
    // The type filter's choices, as RewardList renders them: the select is as wide as its words,
    // and the filters wrap by that width, so it must not grow when Preact takes over, or the list would move.
    const kindSelect = frame.querySelector('#reward-kind');
    for (const { key } of kindSelect ? kinds : []) {
      const option = doc.createElement('option');
      option.value = key;
      option.textContent = kindName(key);
      kindSelect!.append(option);
    }
    const goalId = goal?.account === account ? goal.rewardId : null;
    // Rows are painted only when no redemption is open (the frame ends above the card and the list
    // of those still being checked), so no Redeem is held back here.
    const items = doc.createDocumentFragment();
    for (const group of groups.slice(0, Math.min(visible, FIRST_FRAME_ROWS))) {
      const row = part(
        'row',
        rowModel({ group, choice: defaultChoice(group, goalId), balance, blocked: pending, goal: goalId, held: [] }),
      );
      if (!row) break;
      row.querySelectorAll<HTMLImageElement>('img.reward-photo').forEach(whenLoaded);
      items.append(row);
    }
    return slot(frame, items);
  };
  // In App's order, each only once the one above it is painted; an empty fragment: nothing to show there.
  const parts: Array<() => DocumentFragment | null> = [
    () => (goalParts.earned === null && !goalParts.goal ? doc.createDocumentFragment() : part('goal', goalParts)),
    () => part('status', syncStatusModel(state.loading === true)),
    // The outcome card and the redemptions still being checked: no template (their code loads with
    // Preact), so the frame ends above them.
    () => (shown || checking ? null : doc.createDocumentFragment()),
    list,
  ];
  const main = page.querySelector('main');
  if (!main) return 0;
  root.replaceChildren(slot(page, header, null));
  later(() => {
    // Preact may have taken over meanwhile (it renders all of this itself).
    if (!root.contains(main) || main.firstChild) return;
    const body = doc.createDocumentFragment();
    for (const next of parts) {
      const done = next();
      if (!done) break;
      body.append(done);
    }
    main.append(body);
  });
  return painted;
}
