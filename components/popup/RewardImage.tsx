import { useEffect, useRef, useState } from 'preact/hooks';
import { REWARD_IMAGE_WIDTH, type RewardImage as Image } from '../../utils/reward-view';
import type { Reward } from '../../utils/types';
import { lazyView } from './lazy-view';

/**
 * Rows without a usable image are the exception: the tile's code loads then, and until it is
 * there the same-sized blank square holds its place.
 */
const blank = () => <span class="reward-img" aria-hidden="true" />;
const { Lazy: BrandTile } = lazyView<{ reward: Reward }>(() => import('./BrandTile').then((m) => m.BrandTile), blank);

/**
 * Decorative: the reward's name is the text beside it, so the alt is empty. Without a `reward`
 * (the first frame's template) a missing image is the blank square the tile's fallback is too.
 */
export function RewardImage({ image, reward }: { image: Image | null; reward?: Reward | undefined }) {
  const [broken, setBroken] = useState(false);
  const ref = useRef<HTMLImageElement>(null);
  useEffect(() => {
    // The first frame's script put this image up before Preact listened: it may have failed already
    // (a finished image that cannot be decoded did), and its error event is gone.
    let live = true;
    if (ref.current?.complete) ref.current.decode().catch(() => live && setBroken(true));
    return () => {
      live = false;
    };
  }, []);
  if (!image || broken) return reward ? <BrandTile reward={reward} /> : blank();
  return (
    <img
      ref={ref}
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
