import { QTY_TEXT, qtyParts } from '../../utils/qty';

/**
 * `text` with each number and its unit kept on one line (utils/qty.ts), and each name from the
 * panel (`asName`) one unit in its own direction, as its row shows it: in the first frame as in
 * Preact's.
 */
export function Qty({ text }: { text: string }) {
  return (
    <span class={QTY_TEXT}>
      {qtyParts(text).map((part, i) =>
        typeof part === 'string' ? (
          part
        ) : 'name' in part ? (
          <bdi key={i}>{part.name}</bdi>
        ) : (
          <span key={i} class="qty">
            {part.qty}
          </span>
        ),
      )}
    </span>
  );
}
