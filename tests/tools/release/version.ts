/**
 * The release's version: what the stores take (Chrome: one to four dot-separated whole numbers of
 * at most 65535, no pre-release part; addons.mozilla.org the same for a listed add-on), how it is
 * bumped, and the last release tag it must be higher than. package.json's `version` is the one
 * WXT writes into both manifests and the zips' names (OPERATORS.md, "Versions and updates").
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type Version = [number, number, number];

const MAX_PART = 65_535;
export const BUMPS = ['patch', 'minor', 'major'] as const;
export type Bump = (typeof BUMPS)[number];

/** `1.2.3` as numbers, or null when it is not a version both stores take (`1.2.3-beta`, `1.2`, `v1.2.3`). */
export function parseVersion(text: string): Version | null {
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(text.trim());
  if (!match) return null;
  const parts = match.slice(1).map(Number) as Version;
  return parts.every((n) => Number.isSafeInteger(n) && n <= MAX_PART) ? parts : null;
}

export const versionText = (v: Version) => v.join('.');

export function compareVersions(a: Version, b: Version): number {
  for (let i = 0; i < 3; i += 1) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

export function bumped(from: Version, bump: Bump): Version {
  if (bump === 'major') return [from[0] + 1, 0, 0];
  if (bump === 'minor') return [from[0], from[1] + 1, 0];
  return [from[0], from[1], from[2] + 1];
}

/** Release tags (`v1.2.3`, or `1.2.3`) in the repository at `root`, highest first. */
export function releaseTags(root: string): { tag: string; version: Version }[] {
  let out = '';
  try {
    out = execFileSync('git', ['tag', '--list'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return [];
  }
  return out
    .split('\n')
    .map((tag) => tag.trim())
    .flatMap((tag) => {
      const version = parseVersion(tag.replace(/^v/, ''));
      return version ? [{ tag, version }] : [];
    })
    .sort((a, b) => compareVersions(b.version, a.version));
}

/** The release tags on the commit checked out (a CI run started by pushing one). */
export function tagsAtHead(root: string): string[] {
  try {
    return execFileSync('git', ['tag', '--points-at', 'HEAD'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .map((t) => t.trim())
      .filter((t) => parseVersion(t.replace(/^v/, '')) !== null);
  } catch {
    return [];
  }
}

export function packageVersion(root: string): string {
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * Writes `version` into package.json and package-lock.json (its own two places), as
 * `npm version --no-git-tag-version` does, keeping each file's formatting.
 */
export function writeVersion(root: string, version: string): void {
  const replaceFirst = (file: string, pattern: RegExp) => {
    const path = join(root, file);
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.replace(pattern, `$1"${version}"`));
  };
  replaceFirst('package.json', /^(\s*"version":\s*)"[^"]*"/m);
  // The lock names the version at its top and under packages[""].
  const lock = join(root, 'package-lock.json');
  const data = JSON.parse(readFileSync(lock, 'utf8')) as {
    version?: string;
    packages?: Record<string, { version?: string }>;
  };
  data.version = version;
  if (data.packages?.['']) data.packages[''].version = version;
  writeFileSync(lock, `${JSON.stringify(data, null, 2)}\n`);
}
