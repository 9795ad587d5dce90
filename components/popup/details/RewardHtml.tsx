import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import boxStyles from './reward-box.css?inline';
import { hideWhenBroken, showHeldImages } from './reward-box';

interface Props {
  /** Sanitized and prepared (reward-box.ts); copied in, so the same fragment can be shown again. */
  content: DocumentFragment;
  /** Origins whose held images the panelist asked to see. */
  shown: ReadonlySet<string>;
  /** The section's name, for the box when it scrolls (then it is a focusable region). */
  label: string;
}

/**
 * One reward HTML field in a shadow root of its own, as third-party content: the page's styles do not reach in,
 * its content cannot reach out (reward-box.css), and it is set as DOM nodes, never as markup.
 */
export function RewardHtml({ content, shown, label }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);

  useLayoutEffect(() => {
    const box = host.current;
    if (!box) return;
    const root = box.shadowRoot ?? box.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = boxStyles;
    const flow = document.createElement('div');
    // The catalogue's words keep their own direction, not the page's (reward-box.css: each block its own).
    flow.dir = 'auto';
    flow.append(document.importNode(content, true));
    flow.querySelectorAll('img').forEach(hideWhenBroken);
    root.replaceChildren(style, flow);
    // A box that scrolls must be reachable by keyboard; one that does not is no stop on the way.
    const measure = () => setScrolls(box.scrollHeight > box.clientHeight + 1);
    measure();
    if (typeof ResizeObserver !== 'function') return;
    const observer = new ResizeObserver(measure);
    observer.observe(flow);
    return () => observer.disconnect();
  }, [content]);

  useLayoutEffect(() => {
    const root = host.current?.shadowRoot;
    if (root) showHeldImages(root, shown);
  }, [content, shown]);

  return <div class="html" ref={host} {...(scrolls ? { tabIndex: 0, role: 'region', 'aria-label': label } : {})} />;
}
