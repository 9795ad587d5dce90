import { useSignal } from '@preact/signals';
import { formatDateTime, formatMoney, parseApiTimestamp } from '../../utils/format';
import { t, tp } from '../../utils/i18n';
import { describeState, redemptionState } from '../../utils/redemption-state';
import { settings } from '../../utils/settings';
import type { Redemption } from '../../utils/types';
import { BrandTile } from '../popup/BrandTile';

/** One redemption: what, how much, when, and where it stands (utils/redemption-state.ts, utils/format.ts). */
export function HistoryRow({
  redemption: r,
  recordedAgain = false,
}: {
  redemption: Redemption;
  recordedAgain?: boolean;
}) {
  const state = redemptionState(r);
  const at = parseApiTimestamp(r.created_at);
  const image = r.reward?.image_url || r.reward?.meta_data?.image_url;
  // A provider's image that fails to load would otherwise show the browser's broken-image icon:
  // the popup's brand tile stands in, as it does where there is no image at all. The
  // tile is there from the start, under the image until it has loaded: a lazy image below the fold
  // is not fetched (so cannot fail) before it is scrolled to, and its row is never blank.
  const broken = useSignal(false);
  const loaded = useSignal(false);
  // A provider's own status ("IN_REVIEW") is shown in words; the raw value stays for support.
  const raw = state.kind === 'other' ? state.detail : undefined;
  const money = formatMoney(r.cost, r.currency);
  return (
    <li class="history-row">
      <span class="history-img">
        <BrandTile reward={r.reward ?? { name: t('rewardNumber', r.id), meta_data: {} }} />
        {image && !broken.value && (
          <img
            class={loaded.value ? 'loaded' : undefined}
            src={image}
            alt=""
            width={48}
            height={48}
            loading="lazy"
            decoding="async"
            onLoad={() => (loaded.value = true)}
            onError={() => (broken.value = true)}
          />
        )}
      </span>
      <div class="history-main">
        <span class="reward-name">{r.reward?.name ?? t('rewardNumber', r.id)}</span>
        <span class="muted">
          {at === null ? (
            r.created_at
          ) : (
            <time dateTime={new Date(at).toISOString()}>{formatDateTime(r.created_at)}</time>
          )}
        </span>
      </div>
      <div class="history-amounts">
        {/* Points the panel gave as no number of points (-500, 1.5) are not said (utils/api/records.ts). */}
        {r.reward_point_cost !== null && <span class="qty">{tp('points', r.reward_point_cost)}</span>}
        {/* Not said as money when the currency is not an ISO 4217 code (utils/format.ts): the points say it. */}
        {money && <span class="muted">{money}</span>}
      </div>
      <span class={`state state-${state.kind}`} title={raw ? t('stateReported', raw) : undefined}>
        {describeState(state)}
      </span>
      {state.kind === 'unclaimed' && <p class="state-next hint">{t('unclaimedNextStep', settings.panelName)}</p>}
      {/* Where a failed redemption's points are: not back until it is refunded, which this row will then say. */}
      {state.kind === 'failed' && <p class="state-next hint">{t('failedPointsNotBack', settings.panelName)}</p>}
      {recordedAgain && <p class="state-next hint recorded-again">{t('historyRecordedAgain')}</p>}
    </li>
  );
}
