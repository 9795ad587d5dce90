import { useState } from 'preact/hooks';
import { REWARD_IMAGE_WIDTH, rewardImage } from '../../utils/reward-view';
import type { Reward } from '../../utils/types';
import { lazyView } from './lazy-view';

/**
 * Rows without a usable image are the exception: the tile's code loads then, and until it is
 * there the same-sized blank square holds its place.
 */
const { Lazy: BrandTile } = lazyView<{ reward: Reward }>(
  () => import('./BrandTile').then((m) => m.BrandTile),
  () => <span class="reward-img" aria-hidden="true" />,
);

/** Decorative: the reward's name is the text beside it, so the alt is empty. */
export function RewardImage({ reward }: { reward: Reward }) {
  const [broken, setBroken] = useState(false);
  const image = rewardImage(reward);
  if (!image || broken) return <BrandTile reward={reward} />;
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
