/**
 * Stands in for utils/sanitize.ts in happy-dom, where DOMPurify does not work (its maintainers call
 * the combination unsupported and unsafe; see popup-sanitize.test.tsx): the markup as the fragment
 * DOMPurify would return, marked `data-sanitized` so a test sees what passed through.
 * `vi.mock('../../utils/sanitize', () => import('./sanitize-stub'))`.
 */

/** Markup as DOMPurify returns it: a fragment of a document that loads nothing. */
export function inert(html: string): DocumentFragment {
  const template = document.createElement('template');
  template.innerHTML = html;
  return template.content;
}

export async function sanitizeHtml(html: string): Promise<DocumentFragment> {
  return inert(`<div data-sanitized="">${html}</div>`);
}

/** What the details show of the reward HTML: each field sits in a shadow root of its own. */
export function inHtmlBoxes(root: ParentNode, selector: string): Element[] {
  return [...root.querySelectorAll('.html')].flatMap((box) => [...(box.shadowRoot?.querySelectorAll(selector) ?? [])]);
}
