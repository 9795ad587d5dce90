import { imageOrigin } from './content-policy';
import { URL_START } from './image-url';
import type { Reward, RewardMeta } from './types';
import type { RewardId } from './ids';

/** The providers' HTML fields: most of a reward's size, and only the details view shows them. */
export const HTML_FIELDS = [
  'description',
  'short_description',
  'redemption_instructions',
  'terms',
  'disclaimer',
] as const;
export type HtmlField = (typeof HTML_FIELDS)[number];

/**
 * The catalogue's HTML apart from it, each distinct text once: a brand's denominations share their
 * terms and descriptions, so this is a small part of what the rewards carried, and the catalogue stays small to read.
 */
export interface RewardHtml {
  texts: string[];
  /** Each distinct set of a reward's texts: field → index in `texts` (a brand's rewards share one). */
  sets: Array<Partial<Record<HtmlField, number>>>;
  /** Reward id → index in `sets`. */
  byReward: Record<RewardId, number>;
  /**
   * Origins the catalogue's own images come from: with the panel's, the only ones the details
   * allow images from (utils/content-policy.ts). Absent in a cache written before they were kept.
   */
  imageOrigins?: string[];
}

/**
 * Origins of every reward's image (`image_url`, `meta_data.image_url`, `meta_data.image_urls`) a
 * policy may name. Each start of an address is parsed once: a catalogue's thousands of images come
 * from a few hosts (5,000 rewards: 30,000 addresses, 0.3–1.4 s to parse each).
 */
export function rewardImageOrigins(rewards: readonly Reward[]): string[] {
  const origins = new Set<string>();
  const known = new Map<string, string>();
  for (const reward of rewards) {
    const meta = reward.meta_data;
    for (const url of [reward.image_url, meta?.image_url, ...Object.values(meta?.image_urls ?? {})]) {
      if (typeof url !== 'string') continue;
      const start = URL_START.exec(url)?.[0];
      if (start !== undefined && known.has(start)) continue;
      const origin = imageOrigin(url);
      if (!origin) continue;
      origins.add(origin);
      if (start !== undefined) known.set(start, origin);
    }
  }
  return [...origins];
}

export function withoutHtml(reward: Reward): Reward {
  const meta: RewardMeta = { ...reward.meta_data };
  for (const field of HTML_FIELDS) delete meta[field];
  return { ...reward, meta_data: meta };
}

export function splitHtml(rewards: readonly Reward[]): { rewards: Reward[]; html: RewardHtml } {
  const texts: string[] = [];
  const sets: RewardHtml['sets'] = [];
  const textAt = new Map<string, number>();
  const setAt = new Map<string, number>();
  const byReward: RewardHtml['byReward'] = {};
  const plain = rewards.map((reward) => {
    const set: Partial<Record<HtmlField, number>> = {};
    for (const field of HTML_FIELDS) {
      const text = reward.meta_data?.[field];
      if (!text) continue;
      let at = textAt.get(text);
      if (at === undefined) textAt.set(text, (at = texts.push(text) - 1));
      set[field] = at;
    }
    const key = JSON.stringify(set);
    if (key !== '{}') {
      let at = setAt.get(key);
      if (at === undefined) setAt.set(key, (at = sets.push(set) - 1));
      byReward[reward.id] = at;
    }
    return withoutHtml(reward);
  });
  return { rewards: plain, html: { texts, sets, byReward, imageOrigins: rewardImageOrigins(rewards) } };
}

/** The reward with its HTML back, from the stored texts; as it is when it still carries its own. */
export function withHtml(reward: Reward, html: RewardHtml | null): Reward {
  const set = html?.byReward[reward.id];
  const refs = set === undefined ? undefined : html?.sets[set];
  if (!html || !refs || HTML_FIELDS.some((field) => reward.meta_data?.[field])) return reward;
  const meta: RewardMeta = { ...reward.meta_data };
  for (const field of HTML_FIELDS) {
    const at = refs[field];
    if (at !== undefined && html.texts[at] !== undefined) meta[field] = html.texts[at];
  }
  return { ...reward, meta_data: meta };
}
