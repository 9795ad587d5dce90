/**
 * `npm run store`: everything the three stores ask for (the Chrome Web Store, addons.mozilla.org,
 * Edge Add-ons, which takes the Chrome zip), for the operator's brand, in .output/store/: the Chrome
 * zip, the Firefox zip and its sources zip, the store icon, Edge's logo and the 440×280 promo tile,
 * 1280×800 screenshots and the listing text in each shipped language (public/_locales/*), and
 * SUBMIT.md saying what goes where, what both stores are told about the data the extension sends,
 * and a privacy policy to fill in.
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
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { signInConfigured } from '../../utils/build-settings';
import { edgeLogo, storeIcon } from '../../utils/build/operator/icons';
import { LOCALES_DIR, messageLookup, readMessages, shippedLocales } from '../../utils/build/operator/locale-messages';
import { PanelConfigError, formatWarnings, type ResolvedSettings } from '../../utils/build/operator/panel-config';
import { checkSettings } from '../../utils/build/operator/settings-check';
import { describeSources, sourcesAllowList } from '../../utils/build/operator/sources';
import { listingFor, listingText, type Listing } from '../../utils/build/operator/store-listing';
import { CHROMIUM_PATH } from '../e2e/config';
import { browserProblem } from './store/browser';
import { storeScreenshots } from './store/screenshots';
import { submitNotes } from './store/submit';
import { KitRefusal, reproducibility, zips } from './store/zips';
import { zipEntries } from './zip-read';

const ROOT = process.cwd();
const OUT = '.output/store';
const SHOTS_BUILD = '.output/store-screenshots';

/** The listing in every shipped language, for this build (sign-in or a personal key), and anything missing from it. */
function listings(settings: ResolvedSettings): { made: Listing[]; problems: string[] } {
  const problems: string[] = [];
  const made = shippedLocales(LOCALES_DIR).map((locale) => {
    const lookup = messageLookup(readMessages(LOCALES_DIR, locale));
    const { listing, problems: found } = listingFor(locale, settings.panelName, lookup, signInConfigured(settings));
    problems.push(...found);
    return listing;
  });
  return { made, problems };
}

/** Everything that would stop the kit, in one list, before anything is built. */
async function preflight(): Promise<{ settings: ResolvedSettings; made: Listing[] }> {
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
  const listed = settings ? listings(settings) : { made: [], problems: [] };
  if (settings) problems.push(...reproducibility(settings, ROOT), ...listed.problems);
  const browser = browserProblem(CHROMIUM_PATH, !!process.env.CHROMIUM_PATH);
  if (browser) problems.push(browser);
  if (problems.length || !settings) throw new KitRefusal(problems);
  return { settings, made: listed.made };
}

/** What is in .output/store/, as a tree, folders first named with what they hold. */
function outputTree(files: string[], made: Listing[]): string {
  const top = files.map((p) => `  ${relative(OUT, p)}`);
  const locales = made.map((l) => l.locale).join(', ');
  return [
    `In ${OUT}/:`,
    ...top,
    `  listing/          <language>.txt (title, summary, description to paste) and listing.json, for ${locales}`,
    '  screenshots/      <language>/1-rewards.png and 2-profile.png (1280×800)',
    '  chrome-mv3/, firefox-mv2/   the unpacked builds the zips were made from (load them to try the release)',
  ].join('\n');
}

async function main(): Promise<void> {
  const { settings, made } = await preflight();
  const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;

  rmSync(OUT, { recursive: true, force: true });
  console.log(`Building ${settings.panelName} ${version} for the three stores…`);
  const files = zips(settings, version, OUT, ROOT);
  const sources = describeSources(zipEntries(files.sources), sourcesAllowList(settings, ROOT));
  console.log(
    `The sources zip (for addons.mozilla.org's reviewers) holds only:\n${sources.map((line) => `  ${line}`).join('\n')}`,
  );
  const icon = join(OUT, 'store-icon-128.png');
  writeFileSync(icon, await storeIcon(readFileSync(join(OUT, 'chrome-mv3/icon/96.png'))));
  const logo = await edgeLogo(settings.icon, readFileSync(join(OUT, 'chrome-mv3/icon/128.png')));
  const edgeLogoPath = join(OUT, `edge-logo-${logo.size}.png`);
  writeFileSync(edgeLogoPath, logo.png);

  mkdirSync(join(OUT, 'listing'), { recursive: true });
  for (const listing of made) writeFileSync(join(OUT, 'listing', `${listing.locale}.txt`), listingText(listing));
  writeFileSync(join(OUT, 'listing', 'listing.json'), `${JSON.stringify(made, null, 2)}\n`);

  console.log(`Taking the screenshots in ${made.map((l) => l.locale).join(', ')}…`);
  const promoTile = join(OUT, 'promo-tile-440x280.png');
  const shots = await storeScreenshots(settings, made, join(OUT, 'screenshots'), SHOTS_BUILD, promoTile);
  rmSync(SHOTS_BUILD, { recursive: true, force: true });

  const submit = join(OUT, 'SUBMIT.md');
  writeFileSync(
    submit,
    submitNotes({
      settings,
      version,
      outDir: OUT,
      root: ROOT,
      files,
      storeIcon: icon,
      edgeLogo: { path: edgeLogoPath, size: logo.size },
      promoTile,
      listings: made,
      shots,
      sources,
    }),
  );
  console.log(
    `\n${outputTree([...Object.values(files), icon, edgeLogoPath, promoTile, submit], made)}\n\nNext: ${submit} says what to upload where, what to declare, and has the privacy policy to fill in.`,
  );
}

main().catch((error: unknown) => {
  if (!(error instanceof KitRefusal)) throw error;
  console.error(error.message);
  process.exit(1);
});
