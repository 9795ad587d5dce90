import { t } from '../../utils/i18n';

/**
 * The options page at its history section: a plain link, so it needs no script to
 * open and reads as a link. Extension pages open `target="_blank"` links in a new tab.
 */
export const HISTORY_URL = 'options.html#history';

export function HistoryLink({ sentence, class: className }: { sentence?: string; class?: string }) {
  return (
    <a class={className ?? 'link'} href={HISTORY_URL} target="_blank" rel="noopener">
      {sentence ?? t('openHistory')}
    </a>
  );
}
