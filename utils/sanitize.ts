import type { Config, DOMPurify } from 'dompurify';

/**
 * Reward HTML fields come from a third-party catalogue, so they are sanitized. DOMPurify, and parse5's
 * tokenizer that reads the markup first (utils/handler-free-markup.ts), are imported lazily so only
 * the details view pays for them, not the popup's first chunk.
 *
 * What survives is text, links and plain structure, and nothing that reaches outside its box:
 * no `class`, `id` or `style` to borrow the page's own look, no element that loads
 * something by being there (media, `srcset`, `poster`, `background`; `<img>` is held back by the
 * details view, components/popup/details/reward-box.ts), nothing that sits above the page (dialogs,
 * popovers), takes focus first (`tabindex`) or claims to be one of the extension's controls (`role`,
 * `aria-*`).
 */
const CONFIG: Config = {
  // Reward texts are plain HTML: SVG and MathML only widen what a hostile catalogue could try.
  USE_PROFILES: { html: true },
  FORBID_TAGS: [
    'style',
    'form',
    'input',
    'button',
    'select',
    'textarea',
    'option',
    'iframe',
    'object',
    'embed',
    'audio',
    'video',
    'source',
    'track',
    'picture',
    'dialog',
    'marquee',
    'slot',
  ],
  FORBID_ATTR: [
    'style',
    'class',
    'id',
    'formaction',
    'action',
    'srcset',
    'sizes',
    'poster',
    'background',
    'popover',
    'popovertarget',
    'popovertargetaction',
    'command',
    'commandfor',
    'tabindex',
    'role',
    'slot',
    'part',
    'exportparts',
    'autoplay',
  ],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  // A fragment of DOMPurify's own inert document: nothing in it loads before the details view
  // has held its images back.
  RETURN_DOM_FRAGMENT: true,
};

interface Sanitizer {
  purify: DOMPurify;
  handlerFreeMarkup: (html: string) => string;
}

let instance: Promise<Sanitizer> | undefined;

function sanitizer(): Promise<Sanitizer> {
  instance ??= Promise.all([import('dompurify'), import('./handler-free-markup')]).then(
    ([{ default: factory }, { handlerFreeMarkup }]) => {
      // A private instance, so this hook never changes sanitizing elsewhere in the extension.
      const purify = factory(window);
      purify.addHook('afterSanitizeAttributes', (node) => {
        if ((node.nodeName === 'A' || node.nodeName === 'AREA') && node.hasAttribute('href')) {
          // Links must never navigate the popup itself, nor hand the opener to the target. An image
          // map's <area href> is a link as much as <a> is.
          node.setAttribute('target', '_blank');
          node.setAttribute('rel', 'noopener noreferrer');
        }
      });
      return { purify, handlerFreeMarkup };
    },
  );
  return instance;
}

/**
 * The panel's HTML, sanitized, as a fragment of an inert document that the details adopt node by node.
 * Event handlers go before any parser sees the markup (utils/handler-free-markup.ts: Chromium checks
 * the page's policy even in an inert document); DOMPurify parses the rest in its own DOMParser
 * document. Anything else, a fragment of the live page or DOMPurify's unsanitized string where it is
 * unsupported, is refused: the details then say they could not be shown.
 */
export async function sanitizeHtml(html: string): Promise<DocumentFragment> {
  const { purify, handlerFreeMarkup } = await sanitizer();
  const clean: unknown = purify.sanitize(handlerFreeMarkup(html), CONFIG);
  if (!(clean instanceof DocumentFragment) || clean.ownerDocument === document) {
    throw new Error('Reward HTML was not sanitized apart from the page');
  }
  return clean;
}
