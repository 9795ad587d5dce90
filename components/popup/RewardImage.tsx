import { useState } from 'preact/hooks';
import { REWARD_IMAGE_WIDTH, rewardImage } from '../../utils/reward-view';
import type { Reward } from '../../utils/types';
import { brandTile } from './brand-tile';

/** Decorative: the reward's name is the text beside it, so the alt is empty. */
export function RewardImage({ reward }: { reward: Reward }) {
  const [broken, setBroken] = useState(false);
  const image = rewardImage(reward);
  if (!image || broken) {
    const tile = brandTile(reward);
    return (
      <span class="reward-img reward-tile" style={{ background: tile.color }} aria-hidden="true">
        {tile.initial}
      </span>
    );
  }
  return (
    <img
      class="reward-img"
      src={image.src}
      srcset={image.srcset}
      sizes={image.sizes}
      width={REWARD_IMAGE_WIDTH}
      height={REWARD_IMAGE_WIDTH}
      loading="lazy"
      decoding="async"
      alt=""
      onError={() => setBroken(true)}
    />
  );
}
