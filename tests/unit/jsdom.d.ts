/**
 * The one part of jsdom's API the panel fuzz test uses (panel-fuzz.test.ts: utils/sanitize.ts's
 * DOMPurify on the DOM its maintainers support outside a browser). jsdom ships no types of its own,
 * and @types/jsdom would bring three packages for one constructor.
 */
declare module 'jsdom' {
  export class JSDOM {
    constructor(html?: string);
    readonly window: Window & typeof globalThis;
  }
}
