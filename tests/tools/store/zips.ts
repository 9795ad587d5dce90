/**
 * The three zips both stores take, built the way the reviewers rebuild them, named for the brand:
 * `<name>-<version>-chrome.zip` (the manifest's `key` left out, which the Chrome Web Store
 * refuses), `…-firefox.zip` and `…-sources.zip` (the allow-list of utils/build/operator/sources.ts,
 * with this build's config file and icon). Shared by `npm run store` and `npm run release`, with
 * the check that the sources zip would rebuild this very add-on.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, renameSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { CONFIG_FILES, type ResolvedSettings } from '../../../utils/build/operator/panel-config';
import { SETTING_ROWS } from '../../../utils/build/operator/settings-table';
import { packageBin } from '../package-bin';
import { zipEntries } from '../zip-read';

export type ZipKind = 'chrome' | 'firefox' | 'sources';

/** A refusal of the kit: every problem in one list, nothing built. */
export class KitRefusal extends Error {
  constructor(
    readonly problems: string[],
    command = 'npm run store',
  ) {
    super(
      `${command} has ${problems.length === 1 ? 'a problem' : `${problems.length} problems`}; nothing was built:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.stack = '';
  }
}

/** Why the sources zip would not rebuild this very add-on, if it would not. */
export function reproducibility(settings: ResolvedSettings, root: string): string[] {
  const problems = SETTING_ROWS.filter((row) => settings.sources[row.path] === 'environment').map(
    (row) =>
      `${row.setting.env} is set in the environment: put it in panel.config.json as ${row.path} (the reviewers' rebuild reads the file only)`,
  );
  const config = settings.configFile;
  if (config && !CONFIG_FILES.some((name) => join(root, name) === config)) {
    problems.push(
      `PANEL_CONFIG names ${relative(root, config)}: the reviewers' rebuild reads ${CONFIG_FILES.join(' or ')} at the project's root`,
    );
  }
  if (settings.icon) {
    const inside = relative(root, settings.icon);
    if (
      inside.startsWith('..') ||
      inside.split(sep).some((part) => part.startsWith('.')) ||
      inside.startsWith(`tests${sep}`)
    ) {
      problems.push(
        `icon ${settings.icon}: keep it inside the project, outside tests/ and dot-folders, so the sources zip holds it`,
      );
    }
  }
  return problems;
}

export const slug = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'extension';

/** Both zips and the sources zip, named for the brand; checks the sources zip holds the config and the icon. */
export function zips(settings: ResolvedSettings, version: string, out: string, root: string): Record<ZipKind, string> {
  const env: NodeJS.ProcessEnv = { ...process.env, PANEL_OUT_DIR: out };
  // As the reviewers build: WXT sets NODE_ENV from the mode only when it is not set already.
  delete env.NODE_ENV;
  const [node, wxt] = packageBin('wxt', root);
  for (const args of [['zip'], ['zip', '-b', 'firefox']])
    execFileSync(node, [wxt, ...args], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env });
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string };
  const named = {} as Record<ZipKind, string>;
  for (const kind of ['chrome', 'firefox', 'sources'] as const) {
    named[kind] = join(out, `${slug(settings.panelName)}-${version}-${kind}.zip`);
    renameSync(join(out, `${pkg.name}-${version}-${kind}.zip`), named[kind]);
  }
  const inSources = new Set(zipEntries(named.sources));
  const needed = [settings.configFile, settings.icon]
    .filter((path): path is string => !!path)
    .map((path) => relative(root, path).split(sep).join('/'));
  const missing = needed.filter((path) => !inSources.has(path));
  if (missing.length)
    throw new KitRefusal([
      `The sources zip lacks ${missing.join(' and ')}, so it would not rebuild this add-on (utils/build/operator/sources.ts).`,
    ]);
  return named;
}
