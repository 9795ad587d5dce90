import { useEffect, useState } from 'preact/hooks';
import { formatMoney } from '../../utils/format';
import { valueRange } from '../../utils/reward-view';
import { sanitizeHtml } from '../../utils/sanitize';
import type { Reward } from '../../utils/types';

const SECTIONS = [
  ['Description', (r: Reward) => r.meta_data?.description || r.meta_data?.short_description],
  ['How to redeem', (r: Reward) => r.meta_data?.redemption_instructions],
  ['Terms', (r: Reward) => r.meta_data?.terms],
  ['Disclaimer', (r: Reward) => r.meta_data?.disclaimer],
] as const;

/** Expanded details of one reward; its HTML fields pass through the lazily loaded sanitizer. */
export function RewardDetails({ reward }: { reward: Reward }) {
  const [html, setHtml] = useState<Array<[string, string]> | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    const fields = SECTIONS.map(([label, pick]) => [label, pick(reward) ?? ''] as const).filter(([, v]) => v.trim());
    Promise.all(fields.map(async ([label, raw]) => [label, await sanitizeHtml(raw)] as [string, string])).then(
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
          <strong>Value:</strong> {formatMoney(range.min, currency)}–{formatMoney(range.max, currency)}
        </p>
      )}
      {countries.length > 0 && (
        <p>
          <strong>Usable in:</strong> {countries.map(countryName).join(', ')}
        </p>
      )}
      {failed && <p class="muted">Details could not be shown.</p>}
      {!html && !failed && <p class="muted" aria-busy="true">Loading details…</p>}
      {html?.map(([label, clean]) => (
        <section key={label} class="details-part">
          <h4>{label}</h4>
          <div class="html" dangerouslySetInnerHTML={{ __html: clean }} />
        </section>
      ))}
      {html?.length === 0 && range === null && countries.length === 0 && <p class="muted">No further details.</p>}
    </div>
  );
}

function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(undefined, { type: 'region' }).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}
