import { useEffect, useRef, useState } from 'preact/hooks';
import { REWARD_IMAGE_WIDTH, type RewardImage as Image } from '../../utils/reward-view';
import { markLoaded } from './first-frame/photo';

/** A brand's stand-in (brand-tile.ts): its initial on its tone. */
export interface Tile {
  initial: string;
  tone: string;
}

/**
 * The brand tile, with the provider's image over it once that has loaded: a row is never a blank
 * or grey square, while its image loads (a lazy one only once scrolled to), nor after it failed.
 * Decorative: the reward's name is the text beside it, so the alt is empty. The first frame paints
 * the same markup from the row's model and marks an image loaded the same way (photo.ts).
 */
export function RewardImage({ image, tile }: { image: Image | null; tile: Tile }) {
  const [broken, setBroken] = useState(false);
  const ref = useRef<HTMLImageElement>(null);
  useEffect(() => {
    // The first frame's script put this image up before Preact listened: it may have loaded or
    // failed already (a finished image that cannot be decoded did), and its event is gone.
    let live = true;
    const img = ref.current;
    if (img?.complete)
      img.decode().then(
        () => markLoaded(img),
        () => live && setBroken(true),
      );
    return () => {
      live = false;
    };
  }, []);
  return (
    <span class={`reward-img reward-tile ${tile.tone}`} aria-hidden="true">
      {tile.initial}
      {image && !broken && (
        <img
          ref={ref}
          class="reward-photo"
          src={image.src}
          srcset={image.srcset}
          sizes={image.sizes}
          width={REWARD_IMAGE_WIDTH}
          height={REWARD_IMAGE_WIDTH}
          loading="lazy"
          decoding="async"
          alt=""
          onLoad={(e) => markLoaded(e.currentTarget)}
          onError={() => setBroken(true)}
        />
      )}
    </span>
  );
}
