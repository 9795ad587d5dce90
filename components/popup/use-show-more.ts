import type { RefObject } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * "Show more" takes focus on to the first row it added, once that row is there: left on the
 * button, focus stays behind rows a keyboard must walk back through, and on the last page the
 * button goes and focus with it, to the page's body. The row's first control takes it (a reward's
 * name, which opens its details), or the row itself where it has none (a redemption), as a
 * programmatic stop only. `list` holds the rows, or gives them where they are not one element's
 * children (the options page's profile: its questions, then those only the panel sets); `count` is
 * how many it shows now. The popup's list and the options page's history and profile share it.
 *
 * Returns what "Show more" calls before asking for more.
 */
export function useShowMoreFocus(
  list: RefObject<HTMLElement | null> | (() => ArrayLike<Element> | undefined),
  count: number,
): () => void {
  const from = useRef<number | null>(null);
  useEffect(() => {
    const at = from.current;
    const rows = at === null ? undefined : typeof list === 'function' ? list() : list.current?.children;
    const row = at === null ? undefined : rows?.[at];
    if (!(row instanceof HTMLElement)) return;
    from.current = null;
    const control = row.querySelector<HTMLElement>('button, a[href], select, input, textarea');
    if (control) return control.focus();
    row.tabIndex = -1;
    row.focus();
  }, [count]);
  return () => {
    from.current = count;
  };
}
