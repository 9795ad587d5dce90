// @vitest-environment node
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ICON_SIZES, renderIcons } from '../../utils/build/operator/icons';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'panel-icons-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const solid = (width: number, height: number, format: 'png' | 'jpeg' = 'png') =>
  sharp({ create: { width, height, channels: 4, background: '#0b7a75' } })
    [format]()
    .toBuffer();

/** The left half opaque, the right half clear: a size enlarged or blurred from another leaves partial pixels at the edge. */
const HALF =
  '<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128"><rect width="64" height="128" fill="#000"/></svg>';

describe("the operator's icon", () => {
  it('makes every size from an SVG, none of them blurred (crisp at 1× and 2×)', async () => {
    const icons = await renderIcons(file('half.svg', HALF));
    expect([...icons.keys()]).toEqual([...ICON_SIZES]);
    for (const [size, png] of icons) {
      const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height, info.channels]).toEqual([size, size, 4]);
      const alphas = new Set<number>();
      for (let i = 3; i < data.length; i += 4) alphas.add(data[i]!);
      expect(
        [...alphas].sort((a, b) => a - b),
        `${size} px`,
      ).toEqual([0, 255]);
      // Exactly the left half is drawn.
      expect(data[(size / 2 - 1) * 4 + 3]).toBe(255);
      expect(data[(size / 2) * 4 + 3]).toBe(0);
    }
  });

  it('makes every size from a square PNG of at least 128 px', async () => {
    const icons = await renderIcons(file('big.png', await solid(512, 512)));
    for (const [size, png] of icons) expect((await sharp(png).metadata()).width).toBe(size);
    await expect(renderIcons(file('exact.png', await solid(128, 128)))).resolves.toHaveProperty(
      'size',
      ICON_SIZES.length,
    );
  });

  it('refuses a small or non-square image, another format, or a file that is no image, saying what to give', async () => {
    const small = file('small.png', await solid(96, 96));
    await expect(renderIcons(small)).rejects.toThrow(
      `icon: ${small} is 96×96 px: a PNG icon must be at least 128×128 px (or give an SVG)`,
    );
    const wide = file('wide.png', await solid(256, 128));
    await expect(renderIcons(wide)).rejects.toThrow(`icon: ${wide} is 256×128 px: the icon must be square`);
    const wideSvg = file('wide.svg', '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"/>');
    await expect(renderIcons(wideSvg)).rejects.toThrow('is 200×100 px: the icon must be square');
    const jpeg = file('photo.png', await solid(256, 256, 'jpeg'));
    await expect(renderIcons(jpeg)).rejects.toThrow(`icon: ${jpeg} is JPEG: give an SVG or a PNG`);
    const text = file('notes.svg', 'not an image');
    await expect(renderIcons(text)).rejects.toThrow(
      `icon: ${text} is not an image sharp can read: give an SVG or a PNG`,
    );
  });
});
