import { imageOrigin } from '../../../utils/content-policy';

/**
 * Reward HTML after DOMPurify, made ready for its box (RewardHtml.tsx), still in DOMPurify's inert
 * document so nothing in it has loaded (it comes from a third-party catalogue):
 *
 * - An `<img>` from an origin the page allows (the panel's, the catalogue's image hosts) is held
 *   back as a placeholder until the panelist asks for that host's images: loading one tells its
 *   site who is looking, and when. One from anywhere else could never load (the page's policy
 *   refuses it), so it gives way to its alt text. `data:` images load nothing and stay.
 * - Headings become `<h5>`, below the details' own section headings.
 */

/** Marks a held image: the placeholder carries the address, so a copy of the fragment is enough to show it. */
const HELD = 'data-held-src';

export interface PreparedHtml {
  content: DocumentFragment;
  /** Origins of the held images, in order of appearance, each once. */
  held: string[];
}

export function prepareRewardHtml(content: DocumentFragment, allowed: ReadonlySet<string>): PreparedHtml {
  const doc = content.ownerDocument;
  const held = new Set<string>();
  for (const img of content.querySelectorAll('img')) {
    const src = img.getAttribute('src') ?? '';
    if (/^data:image\//i.test(src)) continue;
    const origin = imageOrigin(src);
    const alt = img.getAttribute('alt') ?? '';
    if (!origin || !allowed.has(origin)) {
      img.replaceWith(doc.createTextNode(alt));
      continue;
    }
    held.add(origin);
    const placeholder = doc.createElement('span');
    placeholder.className = 'held';
    placeholder.setAttribute(HELD, src);
    for (const name of ['alt', 'width', 'height', 'usemap', 'title']) {
      const value = img.getAttribute(name);
      if (value !== null) placeholder.setAttribute(`data-${name}`, value);
    }
    placeholder.textContent = alt;
    if (!alt) placeholder.setAttribute('aria-hidden', 'true');
    img.replaceWith(placeholder);
  }
  for (const heading of content.querySelectorAll('h1, h2, h3, h4')) {
    const lower = doc.createElement('h5');
    lower.append(...heading.childNodes);
    heading.replaceWith(lower);
  }
  return { content, held: [...held] };
}

/** Puts back, in `root`, the held images whose origin is in `shown`. */
export function showHeldImages(root: ParentNode, shown: ReadonlySet<string>): void {
  for (const placeholder of root.querySelectorAll<HTMLElement>(`[${HELD}]`)) {
    const src = placeholder.getAttribute(HELD) ?? '';
    const origin = imageOrigin(src);
    if (!origin || !shown.has(origin)) continue;
    const img = placeholder.ownerDocument.createElement('img');
    for (const name of ['alt', 'width', 'height', 'usemap', 'title']) {
      const value = placeholder.getAttribute(`data-${name}`);
      if (value !== null) img.setAttribute(name, value);
    }
    if (!img.hasAttribute('alt')) img.alt = '';
    hideWhenBroken(img);
    img.src = src;
    placeholder.replaceWith(img);
  }
}

/** An image that fails (gone, refused by the policy, not an image) gives way to its alt text: no broken-image icon. */
export function hideWhenBroken(img: HTMLImageElement): void {
  img.addEventListener('error', () => img.replaceWith(img.ownerDocument.createTextNode(img.alt)), { once: true });
}
