/**
 * Chromium checks the page's content security policy the moment an element is given an event-handler
 * attribute (`onerror`, `onload`, `ontoggle`, …), whatever document the element is in: DOMParser's, a
 * `<template>`'s, createHTMLDocument's and the Sanitizer API's all load and run nothing, yet each such
 * attribute parsed there fires `securitypolicyviolation` and logs "Executing inline event handler
 * violates …" (seen in Chromium 156, tests/e2e/reward-html-inert.test.ts). So the
 * panel's markup reaches no parser as it came: parse5's HTML tokenizer (the WHATWG tokenizer, DOM-free)
 * reads it, and this writes the tokens out again without event handlers, in a form every tokenizer
 * state reads alike:
 *
 * - every `<` of text or of an attribute value is escaped, so the only tags are those written here,
 *   whichever state (RAWTEXT, RCDATA, foreign content) the next parser is in;
 * - attribute values are double-quoted, with `&`, `"`, `<` and `>` escaped;
 * - comments, doctypes, CDATA sections and processing instructions are dropped;
 * - tags are written only with names of ASCII letters, digits and `-`, attributes only with plain names.
 *
 * The tokenizer is parse5's own; the one thing it leaves to the tree builder is switching to raw text
 * after `<script>`, `<style>`, `<textarea>` and the like, done here as parse5-sax-parser does (whose
 * SAXParser is a Node stream, so no use in a page). Foreign content is not tracked, as that needs the
 * tree (`<style>` inside MathML is no raw text): there `<![CDATA[` is read as a bogus comment and a
 * `<style>` as raw text. Safety rests on the output form, not on reading the input exactly as a browser
 * would; a misreading only changes how the text looks. Sanitizing is still DOMPurify's
 * (utils/sanitize.ts), which loads this module lazily along with DOMPurify.
 */
import { html, Tokenizer, TokenizerMode, type TokenHandler } from 'parse5';

const TAG_NAME = /^[a-z][a-z0-9-]*$/;
const ATTRIBUTE_NAME = /^[a-z_][a-z0-9_.:-]*$/;

const $ = html.TAG_ID;
/**
 * Elements whose content the tree builder has the tokenizer read as text up to their own end tag (in
 * HTML content). Not `<noscript>`: DOMPurify's DOMParser document runs no script, so it reads
 * `<noscript>`'s content as markup.
 */
const TEXT_MODE = new Map<html.TAG_ID, Tokenizer['state']>([
  [$.TEXTAREA, TokenizerMode.RCDATA],
  [$.TITLE, TokenizerMode.RCDATA],
  [$.SCRIPT, TokenizerMode.SCRIPT_DATA],
  [$.STYLE, TokenizerMode.RAWTEXT],
  [$.XMP, TokenizerMode.RAWTEXT],
  [$.IFRAME, TokenizerMode.RAWTEXT],
  [$.NOEMBED, TokenizerMode.RAWTEXT],
  [$.NOFRAMES, TokenizerMode.RAWTEXT],
  [$.PLAINTEXT, TokenizerMode.PLAINTEXT],
]);

/**
 * Text as the tokenizer decoded it, written so that the next parser decodes it alike: `&` and no-break
 * spaces as references (as parse5's serializer writes them), `<` escaped.
 */
const escapeText = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('\u00a0', '&nbsp;').replaceAll('<', '&lt;');
/** Raw text (script, style, …) is not decoded, by the tokenizer nor by the next parser: only `<` is escaped. */
const escapeRawText = (text: string) => text.replaceAll('<', '&lt;');
const escapeValue = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** `html` with no event-handler attribute, in a form every parser reads as it is written here (above). */
export function handlerFreeMarkup(markup: string): string {
  let out = '';
  /** In raw text (script, style, …, plaintext), which the tokenizer leaves undecoded. */
  let raw = false;
  const text: TokenHandler['onCharacter'] = ({ chars }) => {
    out += raw ? escapeRawText(chars) : escapeText(chars);
  };
  const tokenizer = new Tokenizer(
    {},
    {
      onStartTag({ tagName, tagID, attrs, selfClosing }) {
        // Character tokens before a tag are handed over before it, so `raw` is set for the text inside.
        if (!TAG_NAME.test(tagName)) return;
        out += `<${tagName}`;
        // The tokenizer keeps the first of a repeated attribute, as browsers do.
        for (const { name, value } of attrs) {
          if (ATTRIBUTE_NAME.test(name) && !name.startsWith('on')) out += ` ${name}="${escapeValue(value)}"`;
        }
        out += selfClosing ? ' />' : '>';
        const mode = TEXT_MODE.get(tagID);
        if (mode !== undefined) {
          tokenizer.state = mode;
          raw = mode !== TokenizerMode.RCDATA;
        }
      },
      onEndTag({ tagName }) {
        // Raw text ends only at its own end tag (plaintext never does).
        raw = false;
        if (TAG_NAME.test(tagName)) out += `</${tagName}>`;
      },
      onCharacter: text,
      onWhitespaceCharacter: text,
      onNullCharacter: text,
      onComment() {},
      onDoctype() {},
      onEof() {},
    },
  );
  tokenizer.write(markup, true);
  return out;
}
