import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { formatMoney } from '../../utils/format';
import { t, uiLocale, type MessageKey } from '../../utils/i18n';
import { withHtml } from '../../utils/reward-html';
import { valueRange } from '../../utils/reward-view';
import { sanitizeHtml } from '../../utils/sanitize';
import './details.css';
import { rewardHtmlItem } from '../../utils/storage-items';
import type { Reward } from '../../utils/types';

/** Summary first; legal text comes collapsed (issue 14), so details are not a wall of terms. */
const COLLAPSED: ReadonlySet<MessageKey> = new Set(['detailsTerms', 'detailsDisclaimer']);

const SECTIONS: ReadonlyArray<readonly [MessageKey, (r: Reward) => string | undefined]> = [
  ['detailsDescription', (r: Reward) => r.meta_data?.description || r.meta_data?.short_description],
  ['detailsHowToRedeem', (r: Reward) => r.meta_data?.redemption_instructions],
  ['detailsTerms', (r: Reward) => r.meta_data?.terms],
  ['detailsDisclaimer', (r: Reward) => r.meta_data?.disclaimer],
];

/**
 * Expanded details of one reward; its HTML fields pass through the lazily loaded sanitizer. Ends
 * with the reward's Redeem button, so a panelist who read to the end need not scroll back.
 */
export function RewardDetails({ reward, redeem }: { reward: Reward; redeem: ComponentChildren }) {
  const [html, setHtml] = useState<Array<[MessageKey, string]> | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    // The stored catalogue keeps its HTML apart (utils/reward-html.ts): read here, when it is shown.
    const sanitized = rewardHtmlItem.getValue().then((html) => {
      const full = withHtml(reward, html);
      const fields = SECTIONS.map(([label, pick]) => [label, pick(full) ?? ''] as const).filter(([, v]) => v.trim());
      return Promise.all(fields.map(async ([label, raw]) => [label, await sanitizeHtml(raw)] as [MessageKey, string]));
    });
    sanitized.then(
      (clean) => live && setHtml(clean),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [reward]);

  const range = valueRange(reward);
  const currency = reward.meta_data?.currency_code || reward.cost_currency;
  const countries = reward.meta_data?.countries?.filter(Boolean) ?? [];
  return (
    <div class="details">
      {range && (
        <p>
          <strong>{t('detailsValue')}</strong> {formatMoney(range.min, currency)}–{formatMoney(range.max, currency)}
        </p>
      )}
      {countries.length > 0 && (
        <p>
          <strong>{t('detailsUsableIn')}</strong> {countries.map(countryName).join(', ')}
        </p>
      )}
      {failed && <p class="muted">{t('detailsFailed')}</p>}
      {!html && !failed && <p class="muted" aria-busy="true">{t('detailsLoading')}</p>}
      {html?.map(([label, clean]) =>
        COLLAPSED.has(label) ? (
          <details key={label} class="details-part">
            <summary>
              <h4>{t(label)}</h4>
            </summary>
            <div class="html" dangerouslySetInnerHTML={{ __html: clean }} />
          </details>
        ) : (
          <section key={label} class="details-part">
            <h4>{t(label)}</h4>
            <div class="html" dangerouslySetInnerHTML={{ __html: clean }} />
          </section>
        ),
      )}
      {html?.length === 0 && range === null && countries.length === 0 && <p class="muted">{t('detailsNone')}</p>}
      <div class="details-end">{redeem}</div>
    </div>
  );
}

function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(uiLocale(), { type: 'region' }).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}
