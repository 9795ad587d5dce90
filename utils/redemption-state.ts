import { humanise } from './humanise';
import { t, type MessageKey } from './i18n';
import type { Redemption, RedemptionState } from './types';

/**
 * Refunded, failed, complete, unclaimed, approved, pending: the first rule that holds wins. A
 * redemption whose flags the panel did not give as booleans (utils/api/records.ts) is in a state the
 * extension cannot tell: shown as the provider's status, or "Status", never guessed.
 */
export function redemptionState(
  r: Pick<
    Redemption,
    'refunded' | 'failed' | 'failed_reason' | 'processed' | 'partner_status' | 'approved' | 'stateUnreadable'
  >,
): RedemptionState {
  const status = r.partner_status?.trim().toUpperCase() ?? '';
  if (r.stateUnreadable) return status ? { kind: 'other', detail: r.partner_status!.trim() } : { kind: 'other' };
  if (r.refunded) return { kind: 'refunded' };
  if (r.failed) return r.failed_reason ? { kind: 'failed', detail: r.failed_reason } : { kind: 'failed' };
  if (r.processed || status === 'COMPLETE') return { kind: 'complete' };
  if (status === 'UNCLAIMED') return { kind: 'unclaimed' };
  // Unknown partner states are shown as they come rather than guessed at.
  if (status) return { kind: 'other', detail: r.partner_status!.trim() };
  if (r.approved) return { kind: 'approved' };
  return { kind: 'pending' };
}

export const STATE_LABELS: Record<RedemptionState['kind'], MessageKey> = {
  refunded: 'stateRefunded',
  failed: 'stateFailed',
  complete: 'stateComplete',
  unclaimed: 'stateUnclaimed',
  other: 'stateOther',
  approved: 'stateApproved',
  pending: 'statePending',
};

/** Provider states the extension knows the words for (others are shown as they come). */
const PARTNER_STATES: Record<string, MessageKey> = { IN_REVIEW: 'stateInReview' };

/**
 * Words for a state, e.g. "Failed: card provider declined", "In review" (a known provider state,
 * in the panelist's language), or another provider state made readable ("On hold").
 */
export function describeState(state: RedemptionState): string {
  if (state.kind === 'other') {
    const raw = state.detail?.trim() ?? '';
    const known = PARTNER_STATES[raw.toUpperCase()];
    return known ? t(known) : raw ? humanise(raw) : t(STATE_LABELS.other);
  }
  if (state.kind === 'failed' && state.detail) return t('stateFailedBecause', state.detail);
  return t(STATE_LABELS[state.kind]);
}
