/**
 * The operator's icon (`icon`), made into every size the manifest and the toolbar use with sharp
 * (libvips, with librsvg for SVG; prebuilt, no browser needed). An SVG is rasterised afresh at each
 * size, so the toolbar's 16 px (1×) and 32 px (2×) are each drawn for their own grid rather than
 * scaled from another raster; a PNG is reduced with a Lanczos filter, never enlarged.
 */
import { readFile } from 'node:fs/promises';
import sharp, { type Metadata } from 'sharp';

/** 16/32 toolbar (1×, 2×), 48 extensions page, 64/96 Firefox's add-ons manager, 128 stores and install dialog. */
export const ICON_SIZES = [16, 32, 48, 64, 96, 128] as const;
/** The largest size made; a PNG smaller than this would have to be enlarged, and blur. */
export const MIN_PNG_SIZE = 128;

export class IconError extends Error {
  constructor(message: string) {
    super(`icon: ${message}`);
    this.name = 'IconError';
  }
}

/** The icon's PNG at every {@link ICON_SIZES} size; throws an {@link IconError} saying what to give instead. */
export async function renderIcons(path: string): Promise<Map<number, Buffer>> {
  const input = await readFile(path);
  let meta: Metadata;
  try {
    meta = await sharp(input).metadata();
  } catch {
    throw new IconError(`${path} is not an image sharp can read: give an SVG or a PNG`);
  }
  const { format, width, height } = meta;
  if (format !== 'svg' && format !== 'png') throw new IconError(`${path} is ${format.toUpperCase()}: give an SVG or a PNG`);
  if (width !== height) throw new IconError(`${path} is ${width}×${height} px: the icon must be square (the same width and height)`);
  if (format === 'png' && width < MIN_PNG_SIZE) {
    throw new IconError(`${path} is ${width}×${height} px: a PNG icon must be at least ${MIN_PNG_SIZE}×${MIN_PNG_SIZE} px (or give an SVG)`);
  }
  const icons = new Map<number, Buffer>();
  for (const size of ICON_SIZES) {
    // librsvg draws an SVG at `density` dots per inch, 72 being its own size in px.
    const source = format === 'svg' ? sharp(input, { density: (72 * size) / width }) : sharp(input);
    const png = await source
      .resize(size, size, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 }, kernel: 'lanczos3' })
      .png({ compressionLevel: 9 })
      .toBuffer();
    icons.set(size, png);
  }
  return icons;
}
