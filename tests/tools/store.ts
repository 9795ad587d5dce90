/**
 * `npm run store`: everything the two stores ask for, for the operator's brand, in .output/store/:
 * the Chrome zip, the Firefox zip and its sources zip, the store icon, 1280×800 screenshots and the
 * listing text in each shipped language (public/_locales/*), and SUBMIT.md saying what goes where,
 * what both stores are told about the data the extension sends, and a privacy policy to fill in.
 *
 * Before anything is built, it checks everything that would stop the kit and names it all in one
 * list: the settings (utils/build/operator/settings-check.ts), what the sources zip would not reproduce,
 * the listing, and the Chromium the screenshots are taken in.
 *
 * It builds from panel.config.json alone: addons.mozilla.org's reviewers rebuild the add-on from
 * the sources zip with `npm ci && npx wxt build -b firefox`, which reads that file and nothing
 * from the builder's environment, so a setting kept only in the environment, or a config or icon
 * the sources zip would not hold, is refused here rather than found out in review.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { storeIcon } from '../../utils/build/operator/icons';
import { LOCALES_DIR, messageLookup, readMessages, shippedLocales } from '../../utils/build/operator/locale-messages';
import {
  CONFIG_FILES,
  PanelConfigError,
  formatWarnings,
  type ResolvedSettings,
} from '../../utils/build/operator/panel-config';
import { checkSettings } from '../../utils/build/operator/settings-check';
import { SETTING_ROWS } from '../../utils/build/operator/settings-table';
import { describeSources, sourcesAllowList } from '../../utils/build/operator/sources';
import { listingFor, listingText, type Listing } from '../../utils/build/operator/store-listing';
import { CHROMIUM_PATH } from '../e2e/config';
import { browserProblem } from './store/browser';
import { storeScreenshots } from './store/screenshots';
import { submitNotes } from './store/submit';
import { zipEntries } from './zip-read';

const ROOT = process.cwd();
const OUT = '.output/store';
const SHOTS_BUILD = '.output/store-screenshots';

class StoreRefusal extends Error {
  constructor(readonly problems: string[]) {
    super(
      `npm run store has ${problems.length === 1 ? 'a problem' : `${problems.length} problems`}; nothing was built:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.stack = '';
  }
}

/** Why the sources zip would not rebuild this very add-on, if it would not. */
function reproducibility(settings: ResolvedSettings): string[] {
  const problems = SETTING_ROWS.filter((row) => settings.sources[row.path] === 'environment').map(
    (row) =>
      `${row.setting.env} is set in the environment: put it in panel.config.json as ${row.path} (the reviewers' rebuild reads the file only)`,
  );
  const config = settings.configFile;
  if (config && !CONFIG_FILES.some((name) => join(ROOT, name) === config)) {
    problems.push(
      `PANEL_CONFIG names ${relative(ROOT, config)}: the reviewers' rebuild reads ${CONFIG_FILES.join(' or ')} at the project's root`,
    );
  }
  if (settings.icon) {
    const inside = relative(ROOT, settings.icon);
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

function listings(panelName: string): { made: Listing[]; problems: string[] } {
  const problems: string[] = [];
  const made = shippedLocales(LOCALES_DIR).map((locale) => {
    const { listing, problems: found } = listingFor(
      locale,
      panelName,
      messageLookup(readMessages(LOCALES_DIR, locale)),
    );
    problems.push(...found);
    return listing;
  });
  return { made, problems };
}

const slug = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'extension';

/** Both zips and the sources zip, named for the brand; checks the sources zip holds the config and the icon. */
function zips(settings: ResolvedSettings, version: string): Record<'chrome' | 'firefox' | 'sources', string> {
  const env: NodeJS.ProcessEnv = { ...process.env, PANEL_OUT_DIR: OUT };
  // As the reviewers build: WXT sets NODE_ENV from the mode only when it is not set already.
  delete env.NODE_ENV;
  for (const args of [
    ['wxt', 'zip'],
    ['wxt', 'zip', '-b', 'firefox'],
  ])
    execFileSync('npx', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { name: string };
  const named = {} as Record<'chrome' | 'firefox' | 'sources', string>;
  for (const kind of ['chrome', 'firefox', 'sources'] as const) {
    named[kind] = join(OUT, `${slug(settings.panelName)}-${version}-${kind}.zip`);
    renameSync(join(OUT, `${pkg.name}-${version}-${kind}.zip`), named[kind]);
  }
  const inSources = new Set(zipEntries(named.sources));
  const needed = [settings.configFile, settings.icon]
    .filter((path): path is string => !!path)
    .map((path) => relative(ROOT, path).split(sep).join('/'));
  const missing = needed.filter((path) => !inSources.has(path));
  if (missing.length)
    throw new StoreRefusal([
      `The sources zip lacks ${missing.join(' and ')}, so it would not rebuild this add-on (utils/build/operator/sources.ts).`,
    ]);
  return named;
}

async function main(): Promise<void> {
  // Everything that would stop the kit, in one list, before anything is built.
  const problems: string[] = [];
  let checked: Awaited<ReturnType<typeof checkSettings>> | null = null;
  try {
    checked = await checkSettings(process.env, 'production');
  } catch (error) {
    if (!(error instanceof PanelConfigError)) throw error;
    problems.push(...error.problems);
    if (error.warnings.length) console.warn(formatWarnings(error.warnings));
  }
  const settings = checked?.settings;
  if (checked?.warnings.length) console.warn(formatWarnings(checked.warnings));
  const listed = settings ? listings(settings.panelName) : { made: [], problems: [] };
  if (settings) problems.push(...reproducibility(settings), ...listed.problems);
  const browser = browserProblem(CHROMIUM_PATH, !!process.env.CHROMIUM_PATH);
  if (browser) problems.push(browser);
  if (problems.length || !settings) throw new StoreRefusal(problems);
  const made = listed.made;
  const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;

  rmSync(OUT, { recursive: true, force: true });
  console.log(`Building ${settings.panelName} ${version} for both stores…`);
  const files = zips(settings, version);
  const sources = describeSources(zipEntries(files.sources), sourcesAllowList(settings, ROOT));
  console.log(
    `The sources zip (for addons.mozilla.org's reviewers) holds only:\n${sources.map((line) => `  ${line}`).join('\n')}`,
  );
  const icon = join(OUT, 'store-icon-128.png');
  writeFileSync(icon, await storeIcon(readFileSync(join(OUT, 'chrome-mv3/icon/96.png'))));

  mkdirSync(join(OUT, 'listing'), { recursive: true });
  for (const listing of made) writeFileSync(join(OUT, 'listing', `${listing.locale}.txt`), listingText(listing));
  writeFileSync(join(OUT, 'listing', 'listing.json'), `${JSON.stringify(made, null, 2)}\n`);

  console.log(`Taking the screenshots in ${made.map((l) => l.locale).join(', ')}…`);
  const shots = await storeScreenshots(settings, made, join(OUT, 'screenshots'), SHOTS_BUILD);
  rmSync(SHOTS_BUILD, { recursive: true, force: true });

  const submit = join(OUT, 'SUBMIT.md');
  writeFileSync(
    submit,
    submitNotes({ settings, version, outDir: OUT, root: ROOT, files, storeIcon: icon, listings: made, shots, sources }),
  );
  console.log(
    `\nIn ${OUT}/:\n${[...Object.values(files), icon, ...made.map((l) => join(OUT, 'listing', `${l.locale}.txt`)), ...shots, submit].map((p) => `  ${relative(OUT, p)}`).join('\n')}\n\nNext: ${submit} says what to upload where, what to declare, and has the privacy policy to fill in.`,
  );
}

main().catch((error: unknown) => {
  if (!(error instanceof StoreRefusal)) throw error;
  console.error(error.message);
  process.exit(1);
});
