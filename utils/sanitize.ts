import type { Config, DOMPurify } from 'dompurify';

/**
 * Reward HTML fields come from a third-party catalogue (design §9). DOMPurify is imported
 * lazily so only the details view pays for it, not the popup's first chunk.
 */

const CONFIG: Config = {
  // Reward texts are plain HTML: SVG and MathML only widen what a hostile catalogue could try.
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'select', 'textarea', 'option', 'iframe', 'object', 'embed'],
  FORBID_ATTR: ['style', 'formaction', 'action'],
  ALLOW_DATA_ATTR: false,
  RETURN_TRUSTED_TYPE: false,
};

let instance: Promise<DOMPurify> | undefined;

function purifier(): Promise<DOMPurify> {
  instance ??= import('dompurify').then(({ default: factory }) => {
    // A private instance, so this hook never changes sanitizing elsewhere in the extension.
    const purify = factory(window);
    purify.addHook('afterSanitizeAttributes', (node) => {
      if ((node.nodeName === 'A' || node.nodeName === 'AREA') && (node as Element).hasAttribute('href')) {
        // Links must never navigate the popup itself, nor hand the opener to the target. An image
        // map's <area href> is a link as much as <a> is.
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      }
    });
    return purify;
  });
  return instance;
}

export async function sanitizeHtml(html: string): Promise<string> {
  const purify = await purifier();
  return purify.sanitize(html, CONFIG) as string;
}
