import { kindName } from '../../../utils/reward-groups';
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
import { fill, shapeOf, type Model } from './frame-fill';
import { outcomeSeenItem, outcomeShown } from '../redeem/outcome-seen-item';
import { whenLoaded } from './photo';
import { popupModel, type RewardsPageModel } from '../model/popup-model';
import type { PopupSnapshot } from '../model/popup-state';

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

/** The parts a template is rendered for (components/popup/first-frame/frame-templates.tsx), by name. */
export type PartName =
  'page' | 'prompt-page' | 'header' | 'questions' | 'prompt' | 'goal' | 'status' | 'list' | 'row' | 'choice';

/**
 * Parts inside a part with templates of their own, by the key their model has in the outer one:
 * each goes into a slot of that name, so whether it is there adds no shape to the part around it
 * (a header with or without the open questions' line is one template, not two).
 */
export const SUBPARTS: Partial<Record<PartName, ReadonlyArray<readonly [key: string, part: PartName]>>> = {
  header: [['questions', 'questions']],
  row: [['choice', 'choice']],
};

/** The model as its part's templates are told apart: each subpart's key empty (its slot is always there). */
export function shapeModel(name: PartName, model: Model): Model {
  const keys = SUBPARTS[name];
  return keys ? { ...model, ...Object.fromEntries(keys.map(([key]) => [key, null])) } : model;
}

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
 * The popup's snapshot from what storage.local.get answered (key → value): each item as its own
 * reader takes it, and the outcome card's entry only while an earlier opening has not seen it settled.
 */
export function snapshotOf(stored: Record<string, unknown>): PopupSnapshot {
  const get = <T>(item: StorageItem<T>): T => item.fromStored(stored[item.key]);
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

/** Copies of the page's templates, filled with a model's text; counts what it painted. */
class Painter {
  painted = 0;
  private readonly templates = new Map<string, HTMLTemplateElement>();

  constructor(readonly doc: Document) {
    for (const template of doc.querySelectorAll<HTMLTemplateElement>('template[data-part]')) {
      this.templates.set(`${template.dataset.part} ${template.dataset.shape}`, template);
    }
  }

  /**
   * A filled copy of the part's template for `model`, its subparts in their slots; null when no
   * template fits it or one of its subparts (then nothing of it is painted).
   */
  part(name: PartName, model: Model): DocumentFragment | null {
    const template = this.templates.get(`${name} ${shapeOf(shapeModel(name, model))}`);
    if (!template) return null;
    const copy = template.content.cloneNode(true) as DocumentFragment;
    fill(copy, model);
    for (const [key, part] of SUBPARTS[name] ?? []) {
      const inner = (model as Record<string, Model | null>)[key];
      const filled = inner ? this.part(part, inner) : null;
      if (inner && !filled) return null;
      const place = copy.querySelector(`${SLOT}[name="${key}"]`);
      if (filled) place?.replaceWith(filled);
      else place?.remove();
    }
    this.painted += 1;
    return copy;
  }
}

/** Puts `children` into the fragment's slots in order; an empty slot goes. */
function slot(into: DocumentFragment, ...children: Array<Node | null>): DocumentFragment {
  into
    .querySelectorAll(`${SLOT}:not([name])`)
    .forEach((s, i) => (children[i] ? s.replaceWith(children[i]) : s.remove()));
  return into;
}

/**
 * Paints the popup's first frame into `root` from what storage holds (`stored`: key → value, as
 * storage.local.get answers), without Preact: each part is a copy of the template its model
 * (popup-model.ts, App's own decisions) fits, filled with the model's text. It goes down the page as
 * App renders it and ends above the outcome card and the redemptions still being checked, whose code
 * loads with Preact: Preact adds those below what is painted, so nothing painted moves. Returns the
 * number of parts painted.
 */
export function paintFirstFrame(
  root: Element,
  stored: Record<string, unknown>,
  now: number,
  later: Later = (rest) => rest(),
): number {
  const model = popupModel(snapshotOf(stored), now);
  const painter = new Painter(root.ownerDocument);
  if (model.page === 'none') return 0;
  if (model.page === 'prompt') {
    const page = painter.part('prompt-page', {});
    const header = painter.part('header', model.header);
    if (!page || !header) return 0;
    root.replaceChildren(slot(page, header, painter.part('prompt', model.prompt)));
    return painter.painted;
  }
  const page = painter.part('page', { busy: String(model.busy) });
  const header = painter.part('header', model.header);
  const main = page?.querySelector('main');
  if (!page || !header || !main) return 0;
  root.replaceChildren(slot(page, header, null));
  later(() => {
    // Preact may have taken over meanwhile (it renders all of this itself).
    if (!root.contains(main) || main.firstChild) return;
    main.append(paintMain(painter, model));
  });
  return painter.painted;
}

/** The parts below the header, in App's order, each only once the one above it is painted. */
function paintMain(painter: Painter, model: RewardsPageModel): DocumentFragment {
  const body = painter.doc.createDocumentFragment();
  const { goal } = model;
  const goalPart =
    goal.earned === null && !goal.goal ? painter.doc.createDocumentFragment() : painter.part('goal', goal);
  if (!goalPart) return body;
  body.append(goalPart);
  const status = painter.part('status', model.status);
  if (!status) return body;
  body.append(status);
  // The outcome card and the redemptions still being checked have no template (their code loads
  // with Preact), so the frame ends above them.
  if (model.outcome || model.checking.length > 0) return body;
  const list = paintList(painter, model);
  if (list) body.append(list);
  return body;
}

/** The list around its first rows; null when no template fits. */
function paintList(painter: Painter, model: RewardsPageModel): DocumentFragment | null {
  const frame = painter.part('list', model.list);
  if (!frame || model.list.empty !== null) return frame;
  // The type filter's choices, as RewardList renders them: the select is as wide as its words,
  // and the filters wrap by that width, so it must not grow when Preact takes over, or the list would move.
  const kindSelect = frame.querySelector('#reward-kind');
  for (const { key } of kindSelect ? model.kinds : []) {
    const option = painter.doc.createElement('option');
    option.value = key;
    option.textContent = kindName(key);
    kindSelect!.append(option);
  }
  const items = painter.doc.createDocumentFragment();
  for (const rowModel of model.rows) {
    // A row no template fits ends the list there: Preact adds the rest below, so nothing painted moves.
    const row = painter.part('row', rowModel);
    if (!row) break;
    row.querySelectorAll<HTMLImageElement>('img.reward-photo').forEach(whenLoaded);
    items.append(row);
  }
  return slot(frame, items);
}
