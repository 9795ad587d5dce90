import type { StorageItem } from '../../../utils/storage-item';
import {
  balanceHistoryItem,
  goalItem,
  ledgerItem,
  popupViewItem,
  sessionItem,
  syncItem,
  unsettledItem,
} from '../../../utils/storage-items';
import { outcomeSeenItem, outcomeShown } from '../redeem/outcome-seen-item';
import { popupModel } from '../model/popup-model';
import type { PopupSnapshot } from '../model/popup-state';
import { FrameMain, FrameTop } from './frame-view';
import { renderDom } from './render-dom';

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

/**
 * When the parts below the header are painted: `rest` runs them. By default at once, in the same
 * frame; the first-frame script puts them one frame later, so the header and the balance are on
 * screen without waiting for the rows' rendering, style and layout (nothing painted moves: they go
 * into the page's empty main, below the header).
 */
export type Later = (rest: () => void) => void;

/**
 * The popup's snapshot from what storage.local.get answered (key → value): each item as its own
 * reader takes it, and the outcome card's entry only while an earlier opening has not seen it settled.
 */
export function snapshotOf(stored: Record<string, unknown>): PopupSnapshot {
  const get = <T,>(item: StorageItem<T>): T => item.fromStored(stored[item.key]);
  const ledger = get(ledgerItem);
  return {
    session: get(sessionItem),
    view: get(popupViewItem),
    sync: get(syncItem).rewards,
    outcome: ledger && outcomeShown(ledger, get(outcomeSeenItem)) ? ledger : null,
    unsettled: get(unsettledItem),
    goal: get(goalItem),
    samples: get(balanceHistoryItem),
  };
}

/**
 * Paints the popup's first frame into `root` from what storage holds (`stored`: key → value, as
 * storage.local.get answers), without Preact: App's own views, rendered from App's own decisions
 * (popup-model.ts) by render-dom.ts, so every state App can show has its first frame. The header
 * first; what is below it when `later` runs, into the page's empty main, unless Preact has taken the
 * page over meanwhile.
 */
export function paintFirstFrame(
  root: Element,
  stored: Record<string, unknown>,
  now: number,
  later: Later = (rest) => rest(),
): void {
  const model = popupModel(snapshotOf(stored), now);
  const doc = root.ownerDocument;
  root.replaceChildren(renderDom(doc, <FrameTop model={model} />));
  if (model.page !== 'rewards') return;
  const main = root.querySelector('main');
  later(() => {
    // Preact may have taken over meanwhile (it renders all of this itself).
    if (!main || !root.contains(main) || main.firstChild) return;
    main.append(renderDom(doc, <FrameMain model={model} />));
  });
}
