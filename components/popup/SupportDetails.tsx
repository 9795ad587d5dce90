import type { SupportModel } from './model/support-model';

/**
 * "Details for support": the HTTP status, the endpoint and the panel's own words, closed
 * until asked for and never a line of the card, with a button that copies them for an e-mail to
 * the panel. The text can also be selected whole with one click.
 *
 * No hooks, on purpose: when header-model.ts took supportModel from this file, the first-frame
 * script bundled it with its own copy of preact/hooks, which the app then used (the app takes the
 * script's modules), and a hook threw "reading '__H'" as the header rendered a failure. The model
 * lives in support-model.ts now; "Copied" is still written straight into the disclosure's status.
 */
export function SupportDetails({ m }: { m: SupportModel }) {
  const parts = (from: EventTarget | null) => {
    const box = (from as HTMLElement | null)?.closest('details');
    return { text: box?.querySelector('.support-text'), status: box?.querySelector('.support-copied') };
  };
  const copy = (e: MouseEvent) => {
    const { text, status } = parts(e.currentTarget);
    // Where the clipboard is refused, the text is selected instead, for Ctrl+C.
    const select = () => text && getSelection()?.selectAllChildren(text);
    if (!navigator.clipboard) return void select();
    navigator.clipboard.writeText(m.text).then(() => status && (status.textContent = m.copied), select);
  };
  return (
    <details class="support" onToggle={(e) => parts(e.currentTarget).status?.replaceChildren()}>
      <summary>{m.summary}</summary>
      <pre class="support-text">{m.text}</pre>
      <button type="button" class="btn-link small" onClick={copy}>
        {m.copy}
      </button>
      <span class="support-copied small muted" role="status" />
    </details>
  );
}
