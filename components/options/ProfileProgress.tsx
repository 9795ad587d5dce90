import { formatPoints } from '../../utils/format';
import { t, tp } from '../../utils/i18n';

interface Props {
  answered: number;
  total: number;
  /** Answering one question at a time: the way in and the filter step aside. */
  answering: boolean;
  openOnly: boolean;
  onOpenOnly(on: boolean): void;
  onAnswerNext(): void;
}

/**
 * The top of "Your profile": how many questions are answered, in words and as a bar the
 * words name, and the one next step while some are open.
 */
export function ProfileProgress({ answered, total, answering, openOnly, onOpenOnly, onAnswerNext }: Props) {
  if (total === 0) return null;
  const open = total - answered;
  return (
    <div class="profile-progress">
      {/* Said once: "4 of 6 answered" while some are open, "Every question is answered." once none is. */}
      <p id="profile-progress-text" class="progress-text">
        {open === 0 ? t('profileAllAnswered') : tp('profileProgress', answered, formatPoints(total))}
      </p>
      <progress value={answered} max={total} aria-labelledby="profile-progress-text" />
      {open > 0 && !answering && (
        <div class="progress-actions">
          <button type="button" class="primary" onClick={onAnswerNext}>
            {t('answerNextQuestion')}
          </button>
          <div class="check">
            <input
              id="profile-open-only"
              type="checkbox"
              checked={openOnly}
              onChange={(e) => onOpenOnly(e.currentTarget.checked)}
            />
            <label for="profile-open-only">{t('openQuestionsOnly')}</label>
          </div>
        </div>
      )}
    </div>
  );
}
