import type { ComponentChildren, VNode } from 'preact';

/**
 * The first frame's renderer: the popup's own view functions, called with their models, and the
 * elements they return made into DOM, as Preact makes them on a first render, so that Preact's
 * takeover of the painted page (main.tsx: render into the same root, reusing each node of the same
 * tag in order) changes nothing. No diffing, no state, no events: a view rendered here is a pure
 * function of its model (hooks, context and classes are refused), and its handlers are Preact's to
 * attach (a click meanwhile is held: early-clicks.ts). Text is text: nothing is parsed as markup.
 *
 * Each rule below is Preact 11's for a new element (src/diff/props.js, src/diff/index.js):
 * `tests/unit/popup-first-frame.test.tsx` and `popup-frames-agree.test.tsx` hold the two to the
 * same DOM.
 */

/** Props Preact sets as attributes even where the element has a property of that name. */
const AS_ATTRIBUTE = new Set([
  'width',
  'height',
  'href',
  'list',
  'form',
  'tabIndex',
  'download',
  'rowSpan',
  'colSpan',
  'role',
  'popover',
]);

/** Props that are not the element's: its children, its identity among siblings, and markup (never from here). */
const NOT_SET = new Set(['children', 'key', 'ref', 'value', 'checked', 'dangerouslySetInnerHTML']);

type Props = Record<string, unknown> & { children?: ComponentChildren };
type Ref = ((el: Element) => void) | { current: Element | null } | null | undefined;

/** One prop on a new element: a property where the element has one, else an attribute; handlers are Preact's. */
function setProp(el: Element, name: string, value: unknown): void {
  if (name.startsWith('on') || typeof value === 'function') return;
  // A style object or SVG would need rules of their own: the build refuses both where a view the
  // first frame paints writes them (utils/build/first-frame-paintable.ts).
  if (name === 'style' && typeof value !== 'string') throw new Error('the first frame sets no style object');
  if (!AS_ATTRIBUTE.has(name) && name in el) {
    try {
      (el as unknown as Record<string, unknown>)[name] = value ?? '';
      return;
    } catch {
      // A read-only property: as an attribute, as Preact does.
    }
  }
  // aria-* and data-* say "false" aloud; elsewhere false, like null, is no attribute.
  if (value !== null && (value !== false || name[4] === '-')) {
    // oxlint-disable-next-line typescript/no-base-to-string -- an attribute's value is a string, number or boolean
    el.setAttribute(name, name === 'popover' && value === true ? '' : String(value));
  }
}

function element(doc: Document, type: string, props: Props, ref: Ref): Element {
  if (type === 'svg' || type === 'math') throw new Error(`<${type}>: the first frame paints HTML only`);
  const el = doc.createElement(type);
  // Preact sets no prop whose value is undefined on a new element.
  for (const [name, value] of Object.entries(props))
    if (!NOT_SET.has(name) && value !== undefined) setProp(el, name, value);
  if (props.dangerouslySetInnerHTML !== undefined) throw new Error(`<${type}>: the first frame writes no markup`);
  append(el, props.children);
  // A form control's value and checked state after its children, so a select's option is there to
  // choose; a progress bar's 0 too, or it would show as indeterminate.
  const control = el as HTMLInputElement;
  const { value, checked } = props;
  if (type === 'progress' && (value === null || value === undefined)) el.removeAttribute('value');
  else if (value !== undefined && (value !== control.value || (type === 'progress' && !value)))
    control.value = (value ?? '') as string;
  if (checked !== undefined && checked !== control.checked) control.checked = checked as boolean;
  if (typeof ref === 'function') ref(el);
  else if (ref) ref.current = el;
  return el;
}

function append(parent: Element | DocumentFragment, children: ComponentChildren): void {
  const doc = parent.ownerDocument;
  if (children === null || children === undefined || typeof children === 'boolean') return;
  if (Array.isArray(children)) {
    for (const child of children as ComponentChildren[]) append(parent, child);
    return;
  }
  if (typeof children === 'string' || typeof children === 'number' || typeof children === 'bigint') {
    parent.appendChild(doc.createTextNode(String(children)));
    return;
  }
  const { type, props, ref } = children as VNode<Props> & { ref?: Ref };
  if (typeof type === 'string') {
    parent.appendChild(element(doc, type, props, ref));
    return;
  }
  if (
    typeof type !== 'function' ||
    (type.prototype as { render?: unknown } | undefined)?.render ||
    'contextType' in type
  )
    throw new Error(
      `the first frame renders function components only, not ${String((type as { name?: string })?.name)}`,
    );
  append(parent, (type as (p: Props) => ComponentChildren)(props));
}

/** `view` (a view function's element) as DOM, in a fragment of `doc`. */
export function renderDom(doc: Document, view: ComponentChildren): DocumentFragment {
  const fragment = doc.createDocumentFragment();
  append(fragment, view);
  return fragment;
}
