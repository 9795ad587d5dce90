/**
 * `npm run release`: a new version for the stores, the way WXT publishes (`wxt submit`, its alias
 * of publish-browser-extension), a dry run unless told otherwise (OPERATORS.md, "Releases").
 *
 * - `npm run release -- <patch|minor|major|X.Y.Z>` prepares one on this machine: refuses a version
 *   not higher than the last release tag, bumps package.json, takes the panelists' notes from the
 *   operator's whats-new.json (never CHANGELOG.md, the project's own) and moves them under the
 *   version, writes its "what's new" in every shipped language, builds the Chrome zip, the Firefox
 *   zip and the sources zip, and checks each store's options offline.
 * - `npm run release -- --from-tag` is what CI runs on a pushed tag `v<version>`: the same, for the
 *   version package.json and the tag name, without changing any file.
 * - `--check-credentials` runs `wxt submit --dry-run` (the stores check the secrets, nothing is
 *   uploaded); `--submit` submits for real. Without either, nothing is sent anywhere.
 * - `--raise-rollout <percent>` raises the share of a staged Chrome release (nothing is built).
 *
 * Exit code 0: done (or the dry run found every chosen store ready); 1: refused, nothing changed;
 * 2: the command line was wrong.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { LOCALES_DIR, shippedLocales } from '../../utils/build/operator/locale-messages';
import { describeSources, sourcesAllowList } from '../../utils/build/operator/sources';
import { PanelConfigError, formatWarnings, type ResolvedSettings } from '../../utils/build/operator/panel-config';
import { checkSettings } from '../../utils/build/operator/settings-check';
import { releaseNotes } from './release/notes';
import { snapshot } from './release/snapshot';
import { AMO_NOTES_FILE, shownRequests, versionNotes } from './release/amo';
import { commandLine, outcomeLines, runStores, type AmoStep, type Mode, type StoreOutcome } from './release/submit';
import { chosenStores, plan, STORE_NAMES, type Channel, type StorePlan } from './release/stores';
import {
  BUMPS,
  bumped,
  compareVersions,
  packageVersion,
  parseVersion,
  releaseTags,
  tagsAtHead,
  versionText,
  writeVersion,
  type Bump,
} from './release/version';
import {
  NOTES_FILE,
  readNotes,
  releaseNotesFile,
  UNRELEASED_NOTES,
  whatsNew,
  type WhatsNew,
} from './release/whats-new';
import { reviewerNotes } from './store/submit';
import { KitRefusal, reproducibility, slug, zips } from './store/zips';
import { packageBin } from './package-bin';
import { zipEntries, zipFile } from './zip-read';

const ROOT = process.cwd();
const OUT = '.output/release';

const USAGE = `npm run release -- <patch|minor|major|X.Y.Z> [options]   prepare a release here
npm run release -- --from-tag [options]                    release the tag at HEAD (CI)
npm run release -- --raise-rollout <percent> [--submit]    raise a staged Chrome release

  --submit                  submit with wxt submit (the stores' secrets in the environment)
  --check-credentials       run wxt submit --dry-run: the stores check the secrets, nothing is uploaded
  --stores <list>           chrome,firefox,edge (default: the stores whose secrets are set)
  --channel <stable|beta>   beta: addons.mozilla.org unlisted, the Chrome trusted testers' item
  --rollout <percent>       Chrome: publish to this share of users first (staged rollout, API v2)
  --require-translations    refuse when a language's what's new would be the English fallback

What's new for panelists: whats-new.json, yours (OPERATORS.md, "Releases"); CHANGELOG.md is the project's.

Without --submit or --check-credentials nothing is sent anywhere (a dry run).`;

class UsageError extends Error {}

interface Args {
  target: string | undefined;
  fromTag: boolean;
  mode: Mode;
  stores: string | undefined;
  channel: Channel;
  rollout: number | null;
  raiseRollout: number | null;
  requireTranslations: boolean;
}

function percent(option: string, value: string | undefined): number | null {
  if (value === undefined) return null;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 100)
    throw new UsageError(`--${option} takes a whole percentage from 1 to 100, not "${value}".`);
  return n;
}

function parse(argv: string[]): Args {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        'from-tag': { type: 'boolean' },
        submit: { type: 'boolean' },
        'check-credentials': { type: 'boolean' },
        stores: { type: 'string' },
        channel: { type: 'string' },
        rollout: { type: 'string' },
        'raise-rollout': { type: 'string' },
        'require-translations': { type: 'boolean' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const raiseRollout = percent('raise-rollout', values['raise-rollout']);
  const fromTag = values['from-tag'] === true;
  if (positionals.length > 1) throw new UsageError('One version at a time.');
  const target = positionals[0];
  if ([!!target, fromTag, raiseRollout !== null].filter(Boolean).length !== 1)
    throw new UsageError('Give a version (patch, minor, major or X.Y.Z), or --from-tag, or --raise-rollout.');
  if (values.submit && values['check-credentials']) throw new UsageError('--submit or --check-credentials, not both.');
  const channel = values.channel ?? 'stable';
  if (channel !== 'stable' && channel !== 'beta')
    throw new UsageError(`--channel is stable or beta, not "${channel}".`);
  return {
    target,
    fromTag,
    mode: values.submit ? 'submit' : values['check-credentials'] ? 'check-credentials' : 'dry-run',
    stores: values.stores,
    channel,
    rollout: percent('rollout', values.rollout),
    raiseRollout,
    requireTranslations: values['require-translations'] === true,
  };
}

interface Target {
  version: string;
  previous: string | null;
}

/** The version to release and the tag it must be higher than; throws a refusal naming why not. */
function target(args: Args, problems: string[]): Target | null {
  const tags = releaseTags(ROOT);
  const current = packageVersion(ROOT);
  if (args.fromTag) {
    const at = tagsAtHead(ROOT);
    const tag = at.find((t) => t.replace(/^v/, '') === current);
    if (!tag) {
      problems.push(
        `HEAD is not tagged v${current} (package.json's version)${at.length ? `: its tags are ${at.join(', ')}` : ''}; push the tag that names this version`,
      );
      return null;
    }
    const previous = tags.find((t) => t.tag !== tag) ?? null;
    if (previous && compareVersions(previous.version, parseVersion(current)!) >= 0)
      problems.push(
        `${tag} is not higher than the release ${previous.tag}: the stores refuse a version they already have or a lower one`,
      );
    return { version: current, previous: previous?.tag ?? null };
  }
  const from = parseVersion(current);
  if (!from) problems.push(`package.json's version ${current} is not X.Y.Z, which both stores take`);
  const wanted = (BUMPS as readonly string[]).includes(args.target!)
    ? from && bumped(from, args.target as Bump)
    : parseVersion(args.target!);
  if (!wanted) {
    problems.push(
      `${args.target} is not patch, minor, major or a version X.Y.Z of whole numbers up to 65535 (the stores take no other)`,
    );
    return null;
  }
  const last = tags[0] ?? null;
  if (last && compareVersions(wanted, last.version) <= 0)
    problems.push(
      `${versionText(wanted)} is not higher than the last release tag ${last.tag}: the stores refuse a version they already have or a lower one`,
    );
  if (from && compareVersions(wanted, from) <= 0)
    problems.push(`${versionText(wanted)} is not higher than package.json's ${current}`);
  return { version: versionText(wanted), previous: last?.tag ?? null };
}

/** Uncommitted changes to tracked files: a release is the commit its tag will name. */
function dirtyTree(): string[] {
  const run = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' });
  if (run.status !== 0) return ['this is not a git checkout: a release is tagged, so it needs one'];
  const changed = run.stdout.split('\n').filter(Boolean);
  return changed.length
    ? [
        `uncommitted changes (${changed.map((l) => l.slice(3)).join(', ')}): commit or stash them, so the tag names what is built`,
      ]
    : [];
}

/** The build settings as the reviewers' rebuild reads them: every problem, and nothing from the environment. */
async function settingsOrProblems(problems: string[]): Promise<ResolvedSettings | null> {
  try {
    const { settings, warnings } = await checkSettings(process.env, 'production');
    if (warnings.length) console.warn(formatWarnings(warnings));
    problems.push(...reproducibility(settings, ROOT));
    return settings;
  } catch (error) {
    if (!(error instanceof PanelConfigError)) throw error;
    problems.push(...error.problems);
    return null;
  }
}

/** The zips' paths, as store/zips.ts names them. */
const zipPaths = (settings: ResolvedSettings, version: string) =>
  Object.fromEntries(
    (['chrome', 'firefox', 'sources'] as const).map((kind) => [
      kind,
      join(OUT, `${slug(settings.panelName)}-${version}-${kind}.zip`),
    ]),
  ) as Record<'chrome' | 'firefox' | 'sources', string>;

async function release(args: Args): Promise<number> {
  const problems: string[] = [];
  if (!args.fromTag) problems.push(...dirtyTree());
  const goal = target(args, problems);
  const settings = await settingsOrProblems(problems);
  const locales = shippedLocales(join(ROOT, LOCALES_DIR));
  const notes = goal ? readNotes(ROOT, goal.version, locales) : { entry: null, texts: {}, problems: [] };
  problems.push(...notes.problems);
  const words = whatsNew(notes.texts, locales);
  if (args.requireTranslations)
    for (const item of words.filter((w) => w.source === 'english-fallback'))
      problems.push(`${item.locale}: no notes of its own in ${NOTES_FILE} (--require-translations)`);
  const chosen = chosenStores(args.stores, process.env, args.channel);
  problems.push(...chosen.problems);
  if (chosen.left) console.log(`${chosen.left} (name it with --stores to try it).`);
  const plans =
    settings && goal
      ? plan({
          zips: zipPaths(settings, goal.version),
          env: process.env,
          stores: chosen.stores,
          channel: args.channel,
          rollout: args.rollout,
          geckoId: settings.geckoId,
          chromeBetaId: settings.chromeBetaId,
        })
      : [];
  if (args.mode !== 'dry-run') {
    if (plans.length === 0) problems.push('no store to send it to: set its secrets, or name it with --stores');
    for (const p of plans) problems.push(...p.problems.map((problem) => `${p.store}: ${problem}`));
  }
  if (problems.length || !goal || !settings || notes.entry === null) throw new KitRefusal(problems, 'npm run release');
  return await build({ args, goal, settings, notesEntry: notes.entry, words, plans });
}

interface Ready {
  args: Args;
  goal: Target;
  settings: ResolvedSettings;
  /** The whats-new.json entry the notes came from: the version's, or `unreleased`. */
  notesEntry: string;
  words: WhatsNew[];
  plans: StorePlan[];
}

/** The files a local release edits, kept as they were until a store took the version (snapshot.ts). */
const EDITED = ['package.json', 'package-lock.json', NOTES_FILE];

/**
 * Everything checked: the release made and sent. A run that fails before any store took the
 * version (a build that breaks, secrets a store refuses, Ctrl-C) leaves the tree as it found it.
 */
async function build(ready: Ready): Promise<number> {
  const kept = ready.args.fromTag ? null : snapshot(ROOT, EDITED);
  const undo = () => {
    const changed = kept?.restore() ?? [];
    if (changed.length) console.error(`Put back as they were: ${changed.join(', ')}.`);
  };
  const stopped = () => {
    undo();
    process.exit(130);
  };
  process.once('SIGINT', stopped).once('SIGTERM', stopped);
  try {
    const { code, keep } = await makeAndSend(ready);
    if (!keep) undo();
    return code;
  } catch (error) {
    undo();
    throw error;
  } finally {
    process.off('SIGINT', stopped).off('SIGTERM', stopped);
  }
}

const indent = (text: string) => text.replace(/^/gm, '  ');

/** The zips built and checked, what's new written per language, and the notes addons.mozilla.org is to get. */
function makeFiles({ goal, settings, words, plans }: Ready) {
  const { version } = goal;
  rmSync(OUT, { recursive: true, force: true });
  console.log(`Building ${settings.panelName} ${version}…`);
  const built = zips(settings, version, OUT, ROOT);
  for (const kind of ['chrome', 'firefox'] as const) {
    const manifest = JSON.parse(zipFile(built[kind], 'manifest.json')!.toString()) as { version: string };
    if (manifest.version !== version)
      throw new Error(`${built[kind]} says version ${manifest.version}, not ${version}`);
  }
  mkdirSync(join(OUT, 'whats-new'), { recursive: true });
  for (const item of words) writeFileSync(join(OUT, 'whats-new', `${item.locale}.txt`), `${item.text}\n`);
  // addons.mozilla.org: each language's notes and the reviewers' build instructions, on the version it makes.
  const firefox = plans.find((p) => p.store === 'firefox');
  const sources = describeSources(zipEntries(built.sources), sourcesAllowList(settings, ROOT));
  const amo: AmoStep | null = firefox
    ? {
        guid: firefox.env.FIREFOX_EXTENSION_ID ?? settings.geckoId,
        version,
        notes: versionNotes(words, reviewerNotes(settings, sources)),
      }
    : null;
  if (amo) writeFileSync(join(OUT, AMO_NOTES_FILE), `${JSON.stringify(amo.notes, null, 2)}\n`);
  return { built, amo };
}

/** The version written, the files made, and the stores asked (or not). */
async function makeAndSend(ready: Ready): Promise<{ code: number; keep: boolean }> {
  const { args, goal, settings, notesEntry, words, plans } = ready;
  const { version } = goal;
  if (!args.fromTag) {
    writeVersion(ROOT, version);
    if (notesEntry === UNRELEASED_NOTES) releaseNotesFile(ROOT, version);
  }
  const { built, amo } = makeFiles(ready);
  const notes = join(OUT, 'RELEASE.md');
  const write = (mode: Mode, outcomes?: StoreOutcome[]) =>
    writeFileSync(
      notes,
      releaseNotes({
        name: settings.panelName,
        version,
        previous: goal.previous,
        outDir: OUT,
        zips: built,
        whatsNew: words,
        notesEntry: args.fromTag || notesEntry !== UNRELEASED_NOTES ? notesEntry : version,
        plans,
        amo,
        mode,
        outcomes,
        fromTag: args.fromTag,
      }),
    );
  write('dry-run');
  for (const item of words)
    console.log(
      `  what's new, ${item.locale}: ${item.source === 'english-fallback' ? 'ENGLISH FALLBACK (no notes of its own)' : 'your notes'}`,
    );
  for (const p of plans)
    console.log(`  ${p.store}: ${p.problems.length ? `not ready: ${p.problems.join('; ')}` : 'ready'}`);
  if (args.mode === 'dry-run') {
    const commands = plans.map((p) => `  ${commandLine(p, false)}`).join('\n') || '  (no store: set its secrets)';
    const then = amo
      ? `\n\nand, once addons.mozilla.org took the version, sets its notes (AMO's v5 API):\n${indent(shownRequests(amo.guid, version, amo.notes))}`
      : '';
    console.log(
      `\nDry run: nothing was sent to any store. With --submit this runs:\n${commands}${then}\n\nSee ${notes}.`,
    );
    return { code: 0, keep: true };
  }
  const outcomes = await runStores(plans, args.mode, ROOT, amo);
  write(args.mode, outcomes);
  console.log(`\n${outcomeLines(outcomes, args.mode).join('\n')}`);
  return ended(outcomes, args, version, notes);
}

/** What a run that asked the stores ends with: the exit code, whether the version bump stays, and what to do. */
function ended(outcomes: StoreOutcome[], args: Args, version: string, notes: string): { code: number; keep: boolean } {
  const failed = outcomes.filter((o) => !o.ok);
  const unnoted = outcomes.some((o) => o.notes && !o.notes.ok);
  if (failed.length === 0) {
    if (unnoted) {
      console.error(
        `\nThe stores took ${version}; the notes on addons.mozilla.org are left to set by hand (above). See ${notes}.`,
      );
      return { code: 1, keep: true };
    }
    console.log(`\nDone. See ${notes}.`);
    return { code: 0, keep: true };
  }
  const took = args.mode === 'submit' ? outcomes.filter((o) => o.ok) : [];
  if (took.length === 0) {
    console.error(
      `\n${args.mode === 'submit' ? `No store took ${version}` : 'A store refused the secrets'}: ${args.fromTag ? 'no file was changed' : `the version and ${NOTES_FILE} are put back as they were`}. ${notes} has the release.`,
    );
    return { code: 1, keep: false };
  }
  const names = (list: StoreOutcome[]) => list.map((o) => STORE_NAMES[o.store]).join(', ');
  console.error(
    `\n${names(took)} took ${version}, ${names(failed)} did not. A version a store took is spent there, so ` +
      `${args.fromTag ? 'the tag stands' : 'the version bump stays: commit and tag it'}; then send the rest from the tag: ` +
      `npm run release -- --from-tag --submit --stores ${failed.map((o) => o.store).join(',')}`,
  );
  return { code: 1, keep: true };
}

/** A staged Chrome release raised to more users: `wxt submit set-deploy-percentage`, a dry run unless --submit. */
function raiseRollout(args: Args): number {
  const command = ['wxt', 'submit', 'set-deploy-percentage', '--chrome-deploy-percentage', String(args.raiseRollout)];
  if (args.mode !== 'submit') {
    console.log(`Dry run: nothing was sent. With --submit this runs:\n  npx ${command.join(' ')}`);
    return 0;
  }
  const [node, wxt] = packageBin('wxt', ROOT);
  return spawnSync(node, [wxt, ...command.slice(1)], { cwd: ROOT, stdio: 'inherit' }).status === 0 ? 0 : 1;
}

async function main(): Promise<number> {
  const args = parse(process.argv.slice(2));
  return args.raiseRollout !== null ? raiseRollout(args) : release(args);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    if (!(error instanceof KitRefusal)) throw error;
    console.error(error.message);
    process.exit(1);
  },
);
