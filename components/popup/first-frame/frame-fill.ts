/**
 * The first frame's templates: the popup's view components render a *model* (every string
 * they show, every flag that shapes their markup); at build time they render a model whose strings are
 * markers, and the first-frame script fills a copy of that markup with the real model's strings. The
 * markup has one source, the components; the strings one, the model functions both use.
 *
 * A template fits a model of the same {@link shapeOf shape}: the same keys, the same parts present,
 * the same flags. The script only paints what a template fits; everything else waits for Preact.
 */

import { QTY_TEXT, qtyParts } from '../../../utils/qty';

/** A component's model: strings, numbers, flags, null for what is absent, and nested models. */
export type Model = object;
type Fields = Record<string, unknown>;

const OPEN = '\uE000';
const CLOSE = '\uE001';
const MARKER = /\uE000([^\uE001]*)\uE001/g;

/** The keys, which parts are present and the flags: what decides the markup, not the text. */
export function shapeOf(model: Model): string {
  return Object.entries(model)
    .map(([key, value]: [string, unknown]) => {
      if (value === null || value === undefined) return key;
      if (typeof value === 'object') return `${key}(${shapeOf(value)})`;
      return key + (typeof value === 'boolean' ? (value ? '+' : '-') : '=');
    })
    .join(',');
}

/** The model with each string and number replaced by a marker naming its path: what templates render. */
export function markers<M extends Model>(model: M, path = ''): M {
  const out: Fields = {};
  for (const [key, value] of Object.entries(model) as Array<[string, unknown]>) {
    const at = path + key;
    out[key] =
      value !== null && typeof value === 'object'
        ? markers(value, `${at}.`)
        : typeof value === 'string' || typeof value === 'number'
          ? OPEN + at + CLOSE
          : value;
  }
  return out as M;
}

function lookup(model: Model, path: string): string {
  let value: unknown = model;
  for (const key of path.split('.')) value = (value as Fields | null | undefined)?.[key];
  // oxlint-disable-next-line typescript/no-base-to-string -- a model's leaves are strings, numbers and booleans
  return value === null || value === undefined ? '' : String(value);
}

/**
 * Replaces every marker in `root`'s text and attributes with the model's value: text, never markup.
 * A text the view sets with Qty (components/popup/Qty.tsx) is then split as Qty splits it: each
 * number and its unit in a span that does not wrap, in any language, and each name in a `<bdi>`.
 */
export function fill(root: Node, model: Model): void {
  fillText(root, model);
  const host = root as ParentNode;
  for (const el of Array.from(host.querySelectorAll?.(`.${QTY_TEXT}`) ?? [])) {
    const doc = el.ownerDocument;
    el.replaceChildren(
      ...qtyParts(el.textContent ?? '').map((part) => {
        if (typeof part === 'string') return doc.createTextNode(part);
        // A name from the panel, one unit in its own direction, as Qty sets it.
        if ('name' in part) {
          const name = doc.createElement('bdi');
          name.textContent = part.name;
          return name;
        }
        const pair = doc.createElement('span');
        pair.className = 'qty';
        pair.textContent = part.qty;
        return pair;
      }),
    );
  }
}

function fillText(root: Node, model: Model): void {
  const swap = (text: string) => text.replace(MARKER, (_, path: string) => lookup(model, path));
  // 1 | 4: elements and text nodes.
  const walker = document.createTreeWalker(root, 1 | 4);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeType === 3) {
      const text = node as Text;
      if (text.data.includes(OPEN)) text.data = swap(text.data);
    } else {
      for (const attribute of Array.from((node as Element).attributes)) {
        if (attribute.value.includes(OPEN)) attribute.value = swap(attribute.value);
      }
    }
  }
}
