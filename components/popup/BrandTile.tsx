import type { Reward } from '../../utils/types';
import { brandTile } from './brand-tile';
import './tile.css';

/** The stand-in for a reward without a usable image (issue 14). */
export function BrandTile({ reward }: { reward: Reward }) {
  const tile = brandTile(reward);
  return (
    <span class="reward-img reward-tile" style={{ background: tile.color }} aria-hidden="true">
      {tile.initial}
    </span>
  );
}
