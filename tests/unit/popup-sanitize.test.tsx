/**
 * DOMPurify does not work on happy-dom (its maintainers call the combination unsupported and
 * unsafe; it returns scripts untouched there), so this file checks how utils/sanitize.ts drives
 * DOMPurify: the config and the link hook. The real removal of script, onerror and javascript:
 * is checked in Chromium by tests/e2e/popup.test.ts ("details show sanitized HTML").
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * What DOMPurify returns in a browser: a fragment of its own DOMParser document. happy-dom makes the
 * live page the owner of every fragment, so the owner is set by hand.
 */
function inertFragment(text: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  fragment.append(text);
  Object.defineProperty(fragment, 'ownerDocument', { value: document.implementation.createHTMLDocument('') });
  return fragment;
}

const purify = vi.hoisted(() => ({
  hooks: new Map<string, (node: Element) => void>(),
  configs: [] as unknown[],
  inputs: [] as string[],
  factoryCalls: 0,
  answer: null as null | ((html: string) => unknown),
}));

vi.mock('dompurify', () => ({
  default: () => {
    purify.factoryCalls += 1;
    return {
      addHook: (name: string, hook: (node: Element) => void) => purify.hooks.set(name, hook),
      sanitize: (html: string, config: unknown) => {
        purify.configs.push(config);
        purify.inputs.push(html);
        return (purify.answer ?? ((markup: string) => inertFragment(`clean:${markup}`)))(html);
      },
    };
  },
}));

let sanitizeHtml: typeof import('../../utils/sanitize').sanitizeHtml;

describe('sanitizeHtml', () => {
  // utils/sanitize.ts keeps its DOMPurify instance for the page's life: each test loads the module
  // anew, so it starts as a page that has sanitized nothing yet, whichever tests ran before it.
  beforeEach(async () => {
    purify.factoryCalls = 0;
    purify.hooks.clear();
    purify.configs.length = 0;
    purify.inputs.length = 0;
    purify.answer = null;
    vi.resetModules();
    ({ sanitizeHtml } = await import('../../utils/sanitize'));
  });

  it('loads one private DOMPurify instance on first use and reuses it', async () => {
    expect(purify.factoryCalls).toBe(0);
    expect((await sanitizeHtml('<p>a</p>')).textContent).toBe('clean:<p>a</p>');
    await sanitizeHtml('<p>b</p>');
    expect(purify.factoryCalls).toBe(1);
  });

  it('forbids style and form controls', async () => {
    await sanitizeHtml('<p>x</p>');
    const config = purify.configs[0] as { FORBID_TAGS: string[]; FORBID_ATTR: string[] };
    expect(config.FORBID_TAGS).toEqual(
      expect.arrayContaining(['style', 'form', 'input', 'button', 'textarea', 'select']),
    );
    expect(config.FORBID_ATTR).toEqual(expect.arrayContaining(['style']));
  });

  it('keeps nothing that reaches outside the box: the page’s classes, loading attributes, layers, focus, roles', async () => {
    await sanitizeHtml('<p>x</p>');
    const config = purify.configs[0] as {
      FORBID_TAGS: string[];
      FORBID_ATTR: string[];
      ALLOW_ARIA_ATTR: boolean;
      ALLOW_DATA_ATTR: boolean;
      RETURN_DOM_FRAGMENT: boolean;
    };
    expect(config.FORBID_ATTR).toEqual(
      expect.arrayContaining([
        'class',
        'id',
        'style',
        'srcset',
        'sizes',
        'poster',
        'background',
        'popover',
        'popovertarget',
        'tabindex',
        'role',
      ]),
    );
    expect(config.FORBID_TAGS).toEqual(
      expect.arrayContaining(['audio', 'video', 'source', 'track', 'picture', 'dialog', 'marquee']),
    );
    expect(config.ALLOW_ARIA_ATTR).toBe(false);
    expect(config.ALLOW_DATA_ATTR).toBe(false);
    // A fragment of DOMPurify's inert document, not markup: the details hold images back before it is shown.
    expect(config.RETURN_DOM_FRAGMENT).toBe(true);
  });

  it('makes every link open in a new tab without the opener', async () => {
    await sanitizeHtml('');
    const hook = purify.hooks.get('afterSanitizeAttributes')!;
    const link = document.createElement('a');
    link.setAttribute('href', 'https://brand.example/terms');
    link.setAttribute('target', '_self');
    hook(link);
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');

    const other = document.createElement('p');
    hook(other);
    expect(other.hasAttribute('target')).toBe(false);
  });

  it("treats an image map's <area href> as the link it is", async () => {
    await sanitizeHtml('');
    const hook = purify.hooks.get('afterSanitizeAttributes')!;
    const area = document.createElement('area');
    area.setAttribute('href', 'https://brand.example/map');
    area.setAttribute('target', '_top');
    area.setAttribute('rel', 'opener');
    hook(area);
    expect(area.getAttribute('target')).toBe('_blank');
    expect(area.getAttribute('rel')).toBe('noopener noreferrer');

    const noHref = document.createElement('area');
    hook(noHref);
    expect(noHref.hasAttribute('target')).toBe(false);
  });

  it('hands DOMPurify the markup without event handlers: Chromium checks the page’s policy even in its inert document', async () => {
    await sanitizeHtml('<p onclick="alert(1)">Terms</p><img src=x onerror=alert(1)>');
    expect(purify.inputs).toEqual(['<p>Terms</p><img src="x">']);
  });

  it('refuses anything but a fragment of another document: DOMPurify’s string where it is unsupported, nodes of the live page', async () => {
    purify.answer = (html) => html;
    await expect(sanitizeHtml('<p>a</p>')).rejects.toThrow('not sanitized apart from the page');
    purify.answer = () => document.createDocumentFragment();
    await expect(sanitizeHtml('<p>a</p>')).rejects.toThrow('not sanitized apart from the page');
  });
});
