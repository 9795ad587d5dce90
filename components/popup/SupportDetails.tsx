import { useState } from 'preact/hooks';
import { t } from '../../utils/i18n';

/** The words of the disclosure (a model, so the first frame's template has markers for them). */
export function supportModel(text: string) {
  return { summary: t('supportDetails'), text, copy: t('supportCopy'), copied: t('supportCopied') };
}

export type SupportModel = ReturnType<typeof supportModel>;

/**
 * "Details for support" (issue 30): the HTTP status, the endpoint and the panel's own words, closed
 * until asked for and never a line of the card, with a button that copies them for an e-mail to
 * the panel. The text can also be selected whole with one click.
 */
export function SupportDetails({ m }: { m: SupportModel }) {
  const [copied, setCopied] = useState(false);
  const copy = (e: MouseEvent) => {
    const text = (e.currentTarget as HTMLElement).parentElement?.querySelector('.support-text');
    const select = () => {
      // Where the clipboard is refused, the text is selected instead, for Ctrl+C.
      if (text) getSelection()?.selectAllChildren(text);
    };
    if (!navigator.clipboard) return select();
    navigator.clipboard.writeText(m.text).then(() => setCopied(true), select);
  };
  return (
    <details class="support" onToggle={() => setCopied(false)}>
      <summary>{m.summary}</summary>
      <pre class="support-text">{m.text}</pre>
      <button type="button" class="btn-link small" onClick={copy}>
        {m.copy}
      </button>
      <span class="small muted" role="status">
        {copied ? m.copied : ''}
      </span>
    </details>
  );
}
