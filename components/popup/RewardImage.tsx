import { REWARD_IMAGE_WIDTH, type RewardImage as Image } from '../../utils/reward-view';
import { watchPhoto } from './photo';

/** A brand's stand-in (brand-tile.ts): its initial on its tone. */
export interface Tile {
  initial: string;
  tone: string;
}

/**
 * The brand tile, with the provider's image over it once that has loaded (photo.ts): a row is never
 * a blank or grey square, while its image loads (a lazy one only once scrolled to), nor after it
 * failed. Decorative: the reward's name is the text beside it, so the alt is empty. No state: the
 * first frame renders it too.
 */
export function RewardImage({ image, tile }: { image: Image | null; tile: Tile }) {
  return (
    <span class={`reward-img reward-tile ${tile.tone}`} aria-hidden="true">
      {tile.initial}
      {image && (
        <img
          ref={watchPhoto}
          class="reward-photo"
          src={image.src}
          srcset={image.srcset}
          sizes={image.sizes}
          width={REWARD_IMAGE_WIDTH}
          height={REWARD_IMAGE_WIDTH}
          loading="lazy"
          decoding="async"
          alt=""
        />
      )}
    </span>
  );
}
