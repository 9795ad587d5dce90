import type { Reward } from '../../../utils/types';

/** How many tones the tiles take (`.tile-0` … `.tile-11` in components/theme.css). */
export const TILE_TONES = 12;

/**
 * A reward without a usable image gets a tile with its brand's initial on a colour derived from
 * the brand's name: the same brand looks the same in every row and on every opening,
 * and different brands differ, which a blank grey square never did. The colour is one of the
 * theme's tones, by class: markup the first frame paints from a template and Preact keeps as it is.
 */
export function brandTile(reward: Pick<Reward, 'name' | 'meta_data'>): { initial: string; tone: string } {
  const brand = (reward.meta_data?.brand_name || reward.name).trim();
  // The first letter or digit as one user-perceived character (so "Écoute" gives "É").
  const initial =
    Array.from(brand.normalize('NFC'))
      .find((c) => /[\p{L}\p{N}]/u.test(c))
      ?.toLocaleUpperCase() ?? '★';
  let hash = 0;
  for (const c of brand.toLowerCase()) hash = (hash * 31 + (c.codePointAt(0) ?? 0)) >>> 0;
  return { initial, tone: `tile-${hash % TILE_TONES}` };
}
