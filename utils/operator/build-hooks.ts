/**
 * What the operator's settings add to a build, as WXT hooks (wxt.config.ts names each one):
 * the icon set made from `icon` in place of public/icon/.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResolvedPublicFile } from 'wxt';
import { ICON_SIZES, renderIcons } from './icons';

const ICON_FILE = /^icon\/\d+\.png$/;

/** The rendered icon set of this build, in a folder of its own until the build is done. */
let rendered: { dir: string } | null = null;

/** `build:before`: renders the operator's icon, so a bad one stops the build before anything is written. */
export async function renderOperatorIcon(iconPath: string): Promise<void> {
  if (!iconPath) return;
  const icons = await renderIcons(iconPath);
  const dir = mkdtempSync(join(tmpdir(), 'panel-icon-'));
  for (const [size, png] of icons) writeFileSync(join(dir, `${size}.png`), png);
  rendered = { dir };
}

/** `build:publicAssets`: the rendered sizes replace public/icon/*.png (WXT lists them in the manifest). */
export function useOperatorIcon(files: ResolvedPublicFile[]): void {
  if (!rendered) return;
  const dir = rendered.dir;
  const kept = files.filter((file) => !ICON_FILE.test(file.relativeDest));
  files.splice(0, files.length, ...kept, ...ICON_SIZES.map((size) => ({ absoluteSrc: join(dir, `${size}.png`), relativeDest: `icon/${size}.png` })));
}

/** `build:done`: the rendered files were copied into the build. */
export function forgetOperatorIcon(): void {
  if (rendered) rmSync(rendered.dir, { recursive: true, force: true });
  rendered = null;
}
