import { t, tp } from '../../utils/i18n';
import { answerHash } from '../../utils/profile-link';
import type { ProfileSummary } from '../../utils/storage-items';

/**
 * "3 profile questions open · Answer now" (issue 20): one quiet line, only while questions are
 * open and only once the profile was read. A plain link to the options page at the first open
 * question: extension pages open `target="_blank"` links in a new tab.
 */
export function ProfileLine({ summary }: { summary: ProfileSummary | null | undefined }) {
  if (!summary?.open) return null;
  return (
    <p class="hdr-next small muted">
      {tp('openQuestions', summary.open)}
      {' · '}
      <a class="link" href={`options.html${answerHash(summary.first)}`} target="_blank" rel="noopener">
        {t('answerNow')}
      </a>
    </p>
  );
}
