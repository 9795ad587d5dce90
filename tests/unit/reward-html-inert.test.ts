/**
 * The panel's markup reaches no parser with an event handler in it (Chromium checks
 * the page's policy even in an inert document; tests/e2e/reward-html-inert.test.ts), and sanitizeHtml
 * never hands over nodes of the live page.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { handlerFreeMarkup } from '../../utils/handler-free-markup';
import { sanitizeHtml } from '../../utils/sanitize';

const HOSTILE = [
  '<img src=x onerror="alert(1)">',
  '<svg><svg onload=alert(1)>',
  '<details open ontoggle=alert(1)>',
  '<body onload=alert(1)>',
  '<iframe srcdoc="<img src=x onerror=alert(1)>"></iframe>',
  '<a href="javascript:alert(1)">link</a>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<img src="x"onerror=alert(1)>',
  '<p/onclick=alert(1)>p</p>',
  '<IMG SRC=x ONERROR=alert(1)>',
  '<img src=x onerror>',
  '<style><!--</style><img src=x onerror=alert(1)>-->',
  '<svg><![CDATA[><img src=x onerror=alert(1)>]]></svg>',
  '<textarea><img src=x onerror=alert(1)></textarea>',
];

/** What any tokenizer, in any state, can read from the output: only tags written in this form. */
const TAG = /^(?:<[a-z][a-z0-9-]*(?: [a-z_][a-z0-9_.:-]*="[^"<>]*")*(?: \/)?>|<\/[a-z][a-z0-9-]*>)/;

function tagsOf(markup: string): string[] {
  const tags: string[] = [];
  for (let at = markup.indexOf('<'); at >= 0; at = markup.indexOf('<', at + 1)) {
    const tag = TAG.exec(markup.slice(at))?.[0];
    if (!tag) throw new Error(`"<" outside a tag at ${at}: ${markup}`);
    tags.push(tag);
  }
  return tags;
}

/** Attribute names in the output's tags that start with "on". */
function handlersIn(markup: string): string[] {
  return tagsOf(markup).flatMap((tag) =>
    [...tag.matchAll(/ ([^ =]+)="/g)].map((m) => m[1]!).filter((name) => name.startsWith('on')),
  );
}

/** The same, as a parser (happy-dom's) reads the output. */
function handlerAttributes(markup: string): string[] {
  const doc = new DOMParser().parseFromString(markup, 'text/html');
  return [...doc.querySelectorAll('*')].flatMap((el) => el.getAttributeNames().filter((name) => /^on/i.test(name)));
}

describe('handlerFreeMarkup', () => {
  it.each(HOSTILE)('writes %s without an event handler, every "<" a tag of its own', (html) => {
    const out = handlerFreeMarkup(html);
    expect(handlersIn(out)).toEqual([]);
    expect(handlerAttributes(out)).toEqual([]);
  });

  it('keeps ordinary markup as it was, text, entities and links included', () => {
    const terms =
      '<p>Valid for <b>12&nbsp;months</b> &amp; in <a href="https://brand.example/t" title=\'say "hi"\'>stores</a>.<br/></p>';
    expect(handlerFreeMarkup(terms)).toBe(
      '<p>Valid for <b>12&nbsp;months</b> &amp; in <a href="https://brand.example/t" title="say &quot;hi&quot;">stores</a>.<br /></p>',
    );
  });

  it('reads as the tokenizer does: text-only elements, comments, stray "<", a tag cut off by the end', () => {
    expect(handlerFreeMarkup('<textarea><img onerror=1></textarea>')).toBe('<textarea>&lt;img onerror=1></textarea>');
    expect(handlerFreeMarkup('a<!-- <img onerror=1> -->b<!--->c<?php x ?>d<!doctype html>e')).toBe('abcde');
    expect(handlerFreeMarkup('1 < 2 <3 </> <')).toBe('1 &lt; 2 &lt;3  &lt;');
    expect(handlerFreeMarkup('<p title="a>b" onclick=1>kept</p><img src=x onerror="1')).toBe(
      '<p title="a&gt;b">kept</p>',
    );
  });

  it('whatever the input, the output is only its own tags and text, without handlers, and reads back unchanged', () => {
    const piece = fc.constantFrom(
      '<',
      '>',
      '/',
      '=',
      '"',
      "'",
      ' ',
      '\n',
      '\0',
      'on',
      'onerror',
      'ONLOAD',
      'x',
      'img',
      'svg',
      'style',
      'script',
      'noscript',
      'textarea',
      'plaintext',
      '<!--',
      '-->',
      '--!>',
      '<![CDATA[',
      ']]>',
      '</',
      '&lt;',
      '&quot;',
      'title',
      'math',
      '<p title="',
      "<a href='",
      '<img src=x ',
      '<style>',
      '</style>',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const out = handlerFreeMarkup(pieces.join(''));
        expect(handlersIn(out)).toEqual([]);
        expect(handlerFreeMarkup(out)).toBe(out);
      }),
      { seed: 29_14, numRuns: 2000 },
    );
  });
});

describe('sanitizeHtml with the real DOMPurify', () => {
  // happy-dom gives every fragment, a <template>'s and DOMParser's too, the live page as its owner,
  // and DOMPurify leaves markup there untouched (popup-sanitize.test.tsx): what a broken or
  // unsupported sanitizer looks like. Chromium's real result is checked in the e2e test of this name.
  it.each(HOSTILE)('never hands over nodes of the live page: %s is refused here', async (html) => {
    await expect(sanitizeHtml(html)).rejects.toThrow('not sanitized apart from the page');
  });
});
