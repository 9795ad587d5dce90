/**
 * What the operator's settings add to a build, as WXT hooks (wxt.config.ts names each one):
 * the icon set made from `icon` in place of public/icon/, and the Chrome zip without the
 * manifest's `key`, which the Chrome Web Store refuses on upload ("key field is not allowed in
 * manifest") while the unpacked build keeps it, so its id is the store item's.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResolvedPublicFile, Wxt } from 'wxt';
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
  files.splice(
    0,
    files.length,
    ...kept,
    ...ICON_SIZES.map((size) => ({ absoluteSrc: join(dir, `${size}.png`), relativeDest: `icon/${size}.png` })),
  );
}

/** `build:done`: the rendered files were copied into the build. */
export function forgetOperatorIcon(): void {
  if (rendered) rmSync(rendered.dir, { recursive: true, force: true });
  rendered = null;
}

let keyTakenOut: { manifestPath: string; text: string } | null = null;

/** `zip:extension:start`: the zipped Chrome manifest goes without `key`. */
export function takeKeyOut(wxt: Wxt): void {
  if (wxt.config.browser === 'firefox') return;
  const manifestPath = join(wxt.config.outDir, 'manifest.json');
  const text = readFileSync(manifestPath, 'utf8');
  const manifest = JSON.parse(text) as { key?: string };
  if (manifest.key === undefined) return;
  delete manifest.key;
  writeFileSync(manifestPath, JSON.stringify(manifest));
  keyTakenOut = { manifestPath, text };
}

/** `zip:extension:done`: the unpacked build has its `key` again. */
export function putKeyBack(): void {
  if (keyTakenOut) writeFileSync(keyTakenOut.manifestPath, keyTakenOut.text);
  keyTakenOut = null;
}
