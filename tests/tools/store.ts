/**
 * `npm run store`: everything the two stores ask for, for the operator's brand, in .output/store/:
 * the Chrome zip, the Firefox zip and its sources zip, the store icon, 1280×800 screenshots and the
 * listing text in each shipped language (public/_locales/*), and SUBMIT.md saying what goes where.
 *
 * It builds from panel.config.json alone: addons.mozilla.org's reviewers rebuild the add-on from
 * the sources zip with `npm ci && npx wxt build -b firefox`, which reads that file and nothing
 * from the builder's environment, so a setting kept only in the environment, or a config or icon
 * the sources zip would not hold, is refused here rather than found out in review.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { extensionIds } from '../../utils/operator/extension-ids';
import { CONFIG_FILES, PanelConfigError, buildSettings, type ResolvedSettings } from '../../utils/operator/panel-config';
import { SETTING_ROWS } from '../../utils/operator/settings-table';
import { listingFor, listingText, type Listing } from '../../utils/operator/store-listing';
import { localeMessages, messageLookup } from './node-i18n';
import { storeScreenshots } from './store/screenshots';
import { zipEntries } from './zip-read';

const ROOT = process.cwd();
const OUT = '.output/store';
const SHOTS_BUILD = '.output/store-screenshots';
const LOCALES_DIR = 'public/_locales';

class StoreRefusal extends Error {}

/** Why the sources zip would not rebuild this very add-on, if it would not. */
function reproducibility(settings: ResolvedSettings): string[] {
  const problems = SETTING_ROWS.filter((row) => settings.sources[row.path] === 'environment').map(
    (row) => `${row.setting.env} is set in the environment: put it in panel.config.json as ${row.path} (the reviewers' rebuild reads the file only)`,
  );
  const config = settings.configFile;
  if (config && !CONFIG_FILES.some((name) => join(ROOT, name) === config)) {
    problems.push(`PANEL_CONFIG names ${relative(ROOT, config)}: the reviewers' rebuild reads ${CONFIG_FILES.join(' or ')} at the project's root`);
  }
  if (settings.icon) {
    const inside = relative(ROOT, settings.icon);
    if (inside.startsWith('..') || inside.split(sep).some((part) => part.startsWith('.')) || inside.startsWith(`tests${sep}`)) {
      problems.push(`icon ${settings.icon}: keep it inside the project, outside tests/ and dot-folders, so the sources zip holds it`);
    }
  }
  return problems;
}

function listings(panelName: string): Listing[] {
  const locales = readdirSync(LOCALES_DIR).filter((name) => statSync(join(LOCALES_DIR, name)).isDirectory()).sort((a, b) => (a === 'en' ? -1 : b === 'en' ? 1 : a.localeCompare(b)));
  const problems: string[] = [];
  const made = locales.map((locale) => {
    const { listing, problems: found } = listingFor(locale, panelName, messageLookup(localeMessages(locale)));
    problems.push(...found);
    return listing;
  });
  if (problems.length) throw new StoreRefusal(`The listing would be refused:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  return made;
}

const slug = (name: string) => name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'extension';

/** Both zips and the sources zip, named for the brand; checks the sources zip holds the config and the icon. */
function zips(settings: ResolvedSettings): Record<'chrome' | 'firefox' | 'sources', string> {
  const env: NodeJS.ProcessEnv = { ...process.env, PANEL_OUT_DIR: OUT };
  // As the reviewers build: WXT sets NODE_ENV from the mode only when it is not set already.
  delete env.NODE_ENV;
  for (const args of [['wxt', 'zip'], ['wxt', 'zip', '-b', 'firefox']]) execFileSync('npx', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { name: string; version: string };
  const named = {} as Record<'chrome' | 'firefox' | 'sources', string>;
  for (const kind of ['chrome', 'firefox', 'sources'] as const) {
    named[kind] = join(OUT, `${slug(settings.panelName)}-${pkg.version}-${kind}.zip`);
    renameSync(join(OUT, `${pkg.name}-${pkg.version}-${kind}.zip`), named[kind]);
  }
  const inSources = new Set(zipEntries(named.sources));
  const needed = [settings.configFile, settings.icon].filter((path): path is string => !!path).map((path) => relative(ROOT, path).split(sep).join('/'));
  const missing = needed.filter((path) => !inSources.has(path));
  if (missing.length) throw new StoreRefusal(`The sources zip lacks ${missing.join(' and ')}, so it would not rebuild this add-on (zip.excludeSources in wxt.config.ts leaves it out).`);
  return named;
}

function submitNotes(settings: ResolvedSettings, files: Record<string, string>, made: Listing[], shots: string[]): string {
  const ids = extensionIds(settings);
  const rel = (path: string) => relative(OUT, path);
  return `# Submitting ${settings.panelName}

Made by \`npm run store\` from ${settings.configFile ? relative(ROOT, settings.configFile) : 'the defaults (no panel.config.json)'}.

## Chrome Web Store (https://chrome.google.com/webstore/devconsole)

1. Upload \`${rel(files.chrome!)}\` (its manifest leaves out \`key\`, which the store refuses).
2. Store listing, per language: title, summary and description from \`listing/<language>.txt\`;
   screenshots from \`screenshots/<language>/\`; the store icon \`store-icon-128.png\`.
3. Privacy: the extension collects nothing; it talks only to the panel's API.
${ids.chrome ? `\nChrome id: ${ids.chrome.id}; sign-in redirect URL: ${ids.chrome.redirectUrl}\n` : '\nNo chromeKey: after the first upload, copy the item\'s public key (Package → View public key) into\npanel.config.json as chromeKey, run `npm run ids` for the redirect URL, and `npm run store` again.\n'}
## addons.mozilla.org (https://addons.mozilla.org/developers/)

1. Upload \`${rel(files.firefox!)}\`; when asked for source code, \`${rel(files.sources!)}\`.
2. Notes for reviewers: "Build with Node 20 or later: npm ci && npx wxt build -b firefox gives
   .output/firefox-mv2/, the add-on as uploaded. panel.config.json holds the build settings."
3. Listing: as for Chrome, from \`listing/<language>.txt\` and \`screenshots/<language>/\`.

Firefox id: ${ids.firefox.id}; sign-in redirect URL: ${ids.firefox.redirectUrl}

## Languages

${made.map((l) => `- ${l.locale}: ${l.title} — ${l.summary}`).join('\n')}

## Screenshots (1280×800)

${shots.map((path) => `- ${rel(path)}`).join('\n')}
`;
}

async function main(): Promise<void> {
  const settings = buildSettings(process.env, 'production');
  const problems = reproducibility(settings);
  if (problems.length) throw new StoreRefusal(`npm run store builds from panel.config.json alone, so the sources zip rebuilds the same add-on:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  const made = listings(settings.panelName);

  rmSync(OUT, { recursive: true, force: true });
  console.log(`Building ${settings.panelName} for both stores…`);
  const files = zips(settings);
  copyFileSync(join(OUT, 'chrome-mv3/icon/128.png'), join(OUT, 'store-icon-128.png'));

  mkdirSync(join(OUT, 'listing'), { recursive: true });
  for (const listing of made) writeFileSync(join(OUT, 'listing', `${listing.locale}.txt`), listingText(listing));
  writeFileSync(join(OUT, 'listing', 'listing.json'), `${JSON.stringify(made, null, 2)}\n`);

  console.log(`Taking the screenshots in ${made.map((l) => l.locale).join(', ')}…`);
  const shots = await storeScreenshots(settings, made, join(OUT, 'screenshots'), SHOTS_BUILD);
  rmSync(SHOTS_BUILD, { recursive: true, force: true });

  writeFileSync(join(OUT, 'SUBMIT.md'), submitNotes(settings, files, made, shots));
  console.log(`\nIn ${OUT}/:\n${[...Object.values(files), join(OUT, 'store-icon-128.png'), ...made.map((l) => join(OUT, 'listing', `${l.locale}.txt`)), ...shots, join(OUT, 'SUBMIT.md')].map((p) => `  ${relative(OUT, p)}`).join('\n')}\n\nNext: ${join(OUT, 'SUBMIT.md')} says what to upload where.`);
}

main().catch((error: unknown) => {
  if (!(error instanceof PanelConfigError || error instanceof StoreRefusal)) throw error;
  console.error(error.message);
  process.exit(1);
});
