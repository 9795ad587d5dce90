/**
 * What the Firefox sources zip holds: an allow-list of the build's inputs, so a
 * file left in the project's root (a key, a backup, a customer list) never reaches
 * addons.mozilla.org because nobody thought to exclude it. addons.mozilla.org's reviewers rebuild
 * the add-on from it with `npm ci && npx wxt build -b firefox`.
 */
import { relative, sep } from 'node:path';
import type { ResolvedSettings } from './panel-config';

/** The build's inputs, always: the package files, the build's config and code, the shipped assets, the README. */
export const SOURCE_PATHS: readonly string[] = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'wxt.config.ts',
  'README.md',
  'entrypoints/**',
  'components/**',
  'utils/**',
  'public/**',
];

/**
 * Never in the zip, even inside an allowed folder: private keys, logs, zips. (WXT also leaves out
 * node_modules, its output, dotfiles and `*.test.*` / `*.spec.*` files.)
 */
export const NEVER_IN_SOURCES: readonly string[] = ['**/*.pem', '**/*.key', '**/*.p12', '**/*.log', '**/*.zip'];

/** A path inside `root` as the zip names it, or null for one outside it. */
function insideRoot(path: string, root: string): string | null {
  const inside = relative(root, path);
  return inside && !inside.startsWith('..') && !inside.startsWith(sep) ? inside.split(sep).join('/') : null;
}

/** The allow-list for this build: {@link SOURCE_PATHS}, the config file read and the operator's icon. */
export function sourcesAllowList(settings: Pick<ResolvedSettings, 'configFile' | 'icon'>, root: string): string[] {
  const own = [settings.configFile, settings.icon]
    .filter((path): path is string => !!path)
    .map((path) => insideRoot(path, root));
  return [...SOURCE_PATHS, ...own.filter((path): path is string => !!path && !SOURCE_PATHS.includes(path))];
}

/** The zip's entries grouped by the allow-list's entry that let each in, for printing. */
export function describeSources(entries: readonly string[], allowList: readonly string[]): string[] {
  return allowList.map((pattern) => {
    if (!pattern.endsWith('/**')) return entries.includes(pattern) ? pattern : `${pattern} (missing)`;
    const folder = pattern.slice(0, -2);
    const count = entries.filter((entry) => entry.startsWith(folder)).length;
    return `${folder} (${count} file${count === 1 ? '' : 's'})`;
  });
}
