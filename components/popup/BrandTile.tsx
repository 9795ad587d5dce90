import type { Reward } from '../../utils/types';
import { brandTile } from './model/brand-tile';

/** The stand-in for a reward without a usable image, in the popup and the options page's history alike. */
export function BrandTile({ reward }: { reward: Pick<Reward, 'name' | 'meta_data'> }) {
  const tile = brandTile(reward);
  return (
    <span class={`reward-img reward-tile ${tile.tone}`} aria-hidden="true">
      {tile.initial}
    </span>
  );
}
