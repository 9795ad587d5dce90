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
  constructor(readonly problems: string[]) {
    super(problems.map((problem) => `icon: ${problem}`).join('\n'));
    this.name = 'IconError';
    // The message says what to give instead; a stack trace would only bury it.
    this.stack = '';
  }
}

/** Everything wrong with the icon at `path`, all at once ([] when it makes every size). */
export async function iconProblems(path: string): Promise<string[]> {
  let meta: Metadata;
  try {
    meta = await sharp(await readFile(path)).metadata();
  } catch {
    return [`${path} is not an image sharp can read: give an SVG or a PNG`];
  }
  const { format, width, height } = meta;
  const problems: string[] = [];
  if (format !== 'svg' && format !== 'png') problems.push(`${path} is ${format.toUpperCase()}: give an SVG or a PNG`);
  if (width !== height)
    problems.push(`${path} is ${width}×${height} px: the icon must be square (the same width and height)`);
  if (format === 'png' && Math.min(width, height) < MIN_PNG_SIZE) {
    problems.push(
      `${path} is ${width}×${height} px: a PNG icon must be at least ${MIN_PNG_SIZE}×${MIN_PNG_SIZE} px (or give an SVG)`,
    );
  }
  return problems;
}

/** The icon's PNG at every {@link ICON_SIZES} size; throws an {@link IconError} naming every problem. */
export async function renderIcons(path: string): Promise<Map<number, Buffer>> {
  const problems = await iconProblems(path);
  if (problems.length) throw new IconError(problems);
  const input = await readFile(path);
  const { format, width } = await sharp(input).metadata();
  const icons = new Map<number, Buffer>();
  for (const size of ICON_SIZES) icons.set(size, await drawn(input, format === 'svg', width, size));
  return icons;
}

/** The image at `size` px square: an SVG drawn afresh at that size, a PNG reduced with Lanczos. */
function drawn(input: Buffer, svg: boolean, width: number, size: number): Promise<Buffer> {
  // librsvg draws an SVG at `density` dots per inch, 72 being its own size in px.
  const source = svg ? sharp(input, { density: (72 * size) / width }) : sharp(input);
  return source
    .resize(size, size, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 }, kernel: 'lanczos3' })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** The Chrome Web Store's icon: 128×128 px, the artwork 96×96 in the middle, 16 px of transparent padding around it. */
export const STORE_ICON = { size: 128, artwork: 96 } as const;

/**
 * The store icon made from the build's own 96 px icon (drawn for that size, not scaled from
 * another): Chrome's image guidelines ask for 96×96 artwork inside a 128×128 image.
 */
export async function storeIcon(icon96: Buffer): Promise<Buffer> {
  const { width, height } = await sharp(icon96).metadata();
  if (width !== STORE_ICON.artwork || height !== STORE_ICON.artwork)
    throw new Error(`the store icon is made from the ${STORE_ICON.artwork} px icon, not ${width}×${height}`);
  const pad = (STORE_ICON.size - STORE_ICON.artwork) / 2;
  return sharp(icon96)
    .ensureAlpha()
    .extend({ top: pad, bottom: pad, left: pad, right: pad, background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** Edge Add-ons' store logo: square, 300×300 px recommended (Partner Center's store listing). */
export const EDGE_LOGO = 300;

/**
 * The Edge Add-ons store logo: the operator's icon drawn at 300 px (an SVG afresh at that size, a
 * PNG reduced, never enlarged: a PNG under 300 px gives its own size), or, without one, the build's
 * own 128 px icon as it is.
 */
export async function edgeLogo(iconPath: string, icon128: Buffer): Promise<{ png: Buffer; size: number }> {
  if (!iconPath) return { png: icon128, size: 128 };
  const input = await readFile(iconPath);
  const { format, width } = await sharp(input).metadata();
  const size = format === 'svg' ? EDGE_LOGO : Math.min(EDGE_LOGO, width);
  return { png: await drawn(input, format === 'svg', width, size), size };
}
