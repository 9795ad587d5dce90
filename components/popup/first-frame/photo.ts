/**
 * Marks a provider's image as loaded: from then on it is shown over the brand tile
 * (RewardImage.tsx, entrypoints/popup/style.css). An attribute set on the element, never one a
 * component renders, so Preact's takeover of the first frame keeps it. No Preact here: the
 * first-frame script marks the images it painted the same way.
 */
export function markLoaded(img: HTMLImageElement): void {
  img.dataset.loaded = '';
}

/** Marks `img` once it has loaded, now if it already has. */
export function whenLoaded(img: HTMLImageElement): void {
  if (img.complete && img.naturalWidth > 0) markLoaded(img);
  else img.addEventListener('load', () => markLoaded(img), { once: true });
}
