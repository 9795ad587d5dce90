import { parseApiTimestamp } from './format';
import { t } from './i18n';
import { asSentence, sentences } from './sentences';
import { asName } from './qty';
import { compareIds, type RewardId } from './ids';
import type { Redemption, Reward } from './types';

/** Pure view logic of the popup's reward list, kept apart from components so it is tested alone. */

/** CSS width of a reward image in the list; `sizes` tells the browser to pick from srcset for it. */
export const REWARD_IMAGE_WIDTH = 56;

export interface RewardImage {
  src: string;
  srcset?: string;
  sizes?: string;
}

/**
 * `meta_data.image_urls` keys look like `80w-326ppi`: the leading width becomes the srcset
 * descriptor. Returns null when the reward has no image at all.
 */
export function rewardImage(reward: Reward, displayWidth = REWARD_IMAGE_WIDTH): RewardImage | null {
  const candidates: Array<[number, string]> = [];
  for (const [key, url] of Object.entries(reward.meta_data?.image_urls ?? {})) {
    const width = /^(\d+)w/.exec(key)?.[1];
    if (width && typeof url === 'string' && url) candidates.push([Number(width), url]);
  }
  candidates.sort((a, b) => a[0] - b[0]);
  const fallback = reward.image_url || reward.meta_data?.image_url || '';
  // Smallest candidate that still covers a 2x screen, so the src alone looks right too.
  const best = candidates.find(([w]) => w >= displayWidth * 2) ?? candidates[candidates.length - 1];
  const src = fallback || best?.[1] || '';
  if (!src) return null;
  if (candidates.length === 0) return { src };
  return {
    src,
    srcset: candidates.map(([w, url]) => `${url} ${w}w`).join(', '),
    sizes: `${displayWidth}px`,
  };
}

export type RewardKind = 'gift' | 'wallet' | 'other';

/**
 * The interface names two provider kinds without their literal strings (brand names), so the
 * kind is recognised by what each carries: gift cards say so in `type` or `reward_type`; wallets
 * carry nothing in meta_data beyond an image.
 */
export function rewardKind(reward: Reward): RewardKind {
  const type = reward.type?.toLowerCase() ?? '';
  const metaType = reward.meta_data?.reward_type?.toLowerCase() ?? '';
  if (type.includes('gift') || metaType.includes('gift')) return 'gift';
  if (/wallet|paypal|venmo/.test(type)) return 'wallet';
  const metaKeys = Object.keys(reward.meta_data ?? {});
  if (metaKeys.length > 0 && metaKeys.every((k) => k === 'image_url')) return 'wallet';
  return 'other';
}

export function kindLabel(reward: Reward): string {
  const kind = rewardKind(reward);
  if (kind === 'gift') return t('kindGiftCard');
  if (kind === 'wallet') return t('kindWallet');
  return reward.type;
}

/**
 * How far the balance covers a cost: all three known, or (either unknown) all three unknown, so
 * no "short by" or ratio is ever made of an unknown.
 */
export type RewardProgress =
  | { ratio: null; affordable: null; missing: null }
  /** ratio: 0..1 of the cost the balance covers; missing: points still missing, 0 when affordable. */
  | { ratio: number; affordable: boolean; missing: number };

export function rewardProgress(balance: number | null, cost: number | null): RewardProgress {
  if (balance === null || cost === null) return { ratio: null, affordable: null, missing: null };
  // A balance below zero covers nothing, not even a free reward: the panel wants it back first.
  const missing = Math.max(0, Math.ceil(cost - balance));
  if (cost <= 0) return { ratio: missing === 0 ? 1 : 0, affordable: missing === 0, missing };
  return { ratio: Math.min(1, Math.max(0, balance / cost)), affordable: missing === 0, missing };
}

/** Why a reward's cost keeps it from being offered: one that cannot be right, none given, two given for one id. */
export type CostQuarantine = 'impossible' | 'missing' | 'unpriced' | 'conflicting';

/**
 * Why the extension offers no Redeem for a reward now, in the order a panelist is told: a cost it
 * quarantined; a balance short of the cost (the reason that lasts); its own earlier redemption
 * still being checked, or one the panel is to be asked about first (`held`); another redemption
 * pending (only a wait).
 */
export type RedeemBlock =
  | { kind: 'cost-refused'; reason: CostQuarantine }
  | { kind: 'short'; missing: number }
  | { kind: 'held'; why: HeldWhy }
  | { kind: 'pending' };

/** `checking`: its redemption is still being checked; `contact`: the panel is to be asked first. */
export type HeldWhy = 'checking' | 'contact';

/** What besides the reward and the balance holds a Redeem back: the popup's Confirms. */
export interface RedeemContext {
  /** Rewards with a redemption still being checked (their Redeem waits for the history). */
  held?: readonly RewardId[];
  /**
   * Rewards whose last redemption the panel said yes to (or whose points left the balance) and
   * the history never showed, while the card that says "contact the panel first" is in view
   * (components/popup/model/open-entries.ts decides which).
   */
  contact?: readonly RewardId[];
  /** Another redemption is pending: one at a time. */
  pending?: boolean;
}

/**
 * Whether the extension lets a panelist redeem `reward` at `balance` now, the one rule for it: not
 * a reward whose points cost the schema quarantined (utils/api/records.ts, `costRefused`), nor one
 * whose cost is unknown (a cost nobody gave is never confirmed; an earlier version stored such a
 * reward unmarked), nor one whose cost a known balance does not cover, nor one held back by its own
 * redemption still being checked or to be taken up with the panel, or by another pending. With the balance unknown the panel
 * decides. The popup's rows, its goal, the outcome card's Redeem again, the first frame, the
 * background before sending and the doctor's redeem check all ask this.
 */
export function redeemBlock(
  reward: Pick<Reward, 'id' | 'reward_point_cost' | 'costRefused' | 'costReason'>,
  balance: number | null,
  context: RedeemContext = {},
): RedeemBlock | null {
  if (reward.costRefused || reward.reward_point_cost === null)
    return { kind: 'cost-refused', reason: reward.costReason ?? (reward.costRefused ? 'impossible' : 'missing') };
  const { affordable, missing } = rewardProgress(balance, reward.reward_point_cost);
  if (affordable === false) return { kind: 'short', missing };
  if (context.held?.includes(reward.id)) return { kind: 'held', why: 'checking' };
  if (context.contact?.includes(reward.id)) return { kind: 'held', why: 'contact' };
  return context.pending ? { kind: 'pending' } : null;
}

const QUARANTINED = {
  impossible: 'costRefused',
  missing: 'costMissing',
  unpriced: 'costUnpriced',
  conflicting: 'costConflicting',
} as const;

/** Why a quarantined cost keeps a reward from being offered, in words beside its Redeem. */
export function quarantineText(reason: CostQuarantine): string {
  return t(QUARANTINED[reason]);
}

/** The reward named, then why it is not offered: "Mystery Box. Cannot be redeemed here: …" (the goal's words). */
export function quarantinedReward(name: string, reason: CostQuarantine): string {
  return sentences(asName(asSentence(name)), quarantineText(reason));
}

/** Affordable first, then the ones the panelist is closest to, then the cheapest. */
export function compareRewards(a: Reward, b: Reward, balance: number | null): number {
  const pa = rewardProgress(balance, a.reward_point_cost);
  const pb = rewardProgress(balance, b.reward_point_cost);
  if (pa.affordable !== pb.affordable) return pa.affordable ? -1 : pb.affordable ? 1 : 0;
  const ratio = (pb.ratio ?? 0) - (pa.ratio ?? 0);
  if (ratio !== 0) return ratio;
  const cost = (a.reward_point_cost ?? Infinity) - (b.reward_point_cost ?? Infinity);
  if (cost !== 0 && !Number.isNaN(cost)) return cost;
  return a.name.localeCompare(b.name);
}

/** Lists longer than this get a search box, a sort and a type filter. */
export const FILTER_THRESHOLD = 8;

/**
 * The newest redemption by `created_at`; unreadable timestamps sort last. Within one second (a
 * re-sent copy, made at once) the larger id, compared as a number: "10" is after "9".
 */
export function latestRedemption(history: readonly Redemption[] | null | undefined): Redemption | null {
  let best: Redemption | null = null;
  let bestAt = -Infinity;
  for (const r of history ?? []) {
    const at = parseApiTimestamp(r.created_at) ?? -Infinity;
    if (best === null || at > bestAt || (at === bestAt && compareIds(r.id, best.id) > 0)) {
      best = r;
      bestAt = at;
    }
  }
  return best;
}

/** Decimal strings from meta_data (`"5.00"`); null when absent or unreadable. */
export function valueRange(reward: Reward): { min: number; max: number } | null {
  if (reward.meta_data?.value_type !== 'VARIABLE_VALUE') return null;
  const min = Number.parseFloat(reward.meta_data.min_value ?? '');
  const max = Number.parseFloat(reward.meta_data.max_value ?? '');
  if (!Number.isFinite(min) || !Number.isFinite(max)) return null;
  return { min, max };
}
