import { QTY_TEXT, qtyParts } from '../../utils/qty';

/**
 * `text` with each number and its unit kept on one line (utils/qty.ts), and each name from the
 * panel (`asName`) one unit in its own direction, as its row shows it: inside a span the first
 * frame's script recognises by its class and splits the same way (frame-fill.ts), so the painted
 * frame and Preact's are the same DOM.
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
