import { snapshotOf } from './items';
export { FIRST_FRAME_ITEMS } from './items';
import { popupTop } from '../model/popup-model';
import { FrameMain, FrameTop } from './frame-view';
import { renderDom } from './render-dom';

/**
 * When the parts below the header are painted: `rest` runs them. By default at once, in the same
 * frame; the first-frame script puts them one frame later, so the header and the balance are on
 * screen without waiting for the rows' rendering, style and layout (nothing painted moves: they go
 * into the page's empty main, below the header).
 */
export type Later = (rest: () => void) => void;

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
  // The header's model first: the rows' are worked out once it is painted.
  const top = popupTop(snapshotOf(stored), now);
  const doc = root.ownerDocument;
  root.replaceChildren(renderDom(doc, <FrameTop model={top} />));
  if (top.page !== 'rewards') return;
  const main = root.querySelector('main');
  later(() => {
    // Preact may have taken over meanwhile (it renders all of this itself).
    if (!main || !root.contains(main) || main.firstChild) return;
    const { rest, ...page } = top;
    main.append(renderDom(doc, <FrameMain model={{ ...page, ...rest() }} />));
  });
}
