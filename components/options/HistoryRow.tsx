import { useSignal } from '@preact/signals';
import { formatDateTime, formatMoney, parseApiTimestamp } from '../../utils/format';
import { humanise } from '../../utils/humanise';
import { t, tp } from '../../utils/i18n';
import { describeState, redemptionState } from '../../utils/redemption-state';
import { settings } from '../../utils/settings';
import type { Redemption } from '../../utils/types';

/** One redemption: what, how much, when, and where it stands (design §6, §7, §8). */
export function HistoryRow({ redemption: r, recordedAgain = false }: { redemption: Redemption; recordedAgain?: boolean }) {
  const state = redemptionState(r);
  const at = parseApiTimestamp(r.created_at);
  const image = r.reward?.image_url || r.reward?.meta_data?.image_url;
  // A provider's image that fails to load would otherwise show the browser's broken-image icon.
  const broken = useSignal(false);
  // A provider's own status ("IN_REVIEW") is shown in words; the raw value stays for support.
  const raw = state.kind === 'other' ? state.detail : undefined;
  return (
    <li class="history-row">
      {image && !broken.value ? (
        <img src={image} alt="" width={48} height={48} loading="lazy" decoding="async" onError={() => (broken.value = true)} />
      ) : (
        <span class="image-placeholder" />
      )}
      <div class="history-main">
        <span class="reward-name">{r.reward?.name ?? t('rewardNumber', r.id)}</span>
        <span class="muted">
          {at === null ? r.created_at : <time dateTime={new Date(at).toISOString()}>{formatDateTime(r.created_at)}</time>}
        </span>
      </div>
      <div class="history-amounts">
        <span>{tp('points', r.reward_point_cost)}</span>
        <span class="muted">{formatMoney(r.cost, r.currency)}</span>
      </div>
      <span class={`state state-${state.kind}`} title={raw ? t('stateReported', raw) : undefined}>
        {raw ? humanise(raw) : describeState(state)}
      </span>
      {state.kind === 'unclaimed' && <p class="state-next hint">{t('unclaimedNextStep', settings.panelName)}</p>}
      {recordedAgain && <p class="state-next hint recorded-again">{t('historyRecordedAgain')}</p>}
    </li>
  );
}
