/**
 * The sign-in build (sign-in-build.ts) with `identity` taken out of its manifest, as a copy in
 * .output/e2e-sign-in-no-identity: without the permission the browser gives the
 * extension no `identity` API, which is how Firefox for Android runs it (it has none at all) and how
 * Chrome runs it when the panelist does not grant the optional permission. The code is the release
 * code, byte for byte: only the copied manifest changes, so no switch of any kind reaches a build.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { laneDir } from './config';
import { signInBuild } from './sign-in-build';

export const NO_IDENTITY_OUT_DIR = laneDir('.output/e2e-sign-in-no-identity');

interface Manifest {
  permissions?: string[];
  optional_permissions?: string[];
}

export function noIdentityBuild(browser: 'chrome' | 'firefox'): string {
  return withoutIdentity(
    signInBuild(browser),
    join(NO_IDENTITY_OUT_DIR, browser === 'chrome' ? 'chrome-mv3' : 'firefox-mv2'),
  );
}

/** A copy of the build in `from`, in `dir`, its manifest without `identity`. */
export function withoutIdentity(from: string, dir: string): string {
  rmSync(dir, { recursive: true, force: true });
  cpSync(from, dir, { recursive: true });
  const path = join(dir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as Manifest;
  const without = (list?: string[]) => list?.filter((p) => p !== 'identity');
  if (!manifest.permissions?.includes('identity') && !manifest.optional_permissions?.includes('identity')) {
    throw new Error(`${from}/manifest.json asks for no identity permission: is it the sign-in build?`);
  }
  writeFileSync(
    path,
    JSON.stringify(
      {
        ...manifest,
        permissions: without(manifest.permissions),
        optional_permissions: without(manifest.optional_permissions),
      },
      null,
      2,
    ),
  );
  return dir;
}
