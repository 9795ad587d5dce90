/**
 * Sending a release to the stores: one `wxt submit` per store, one after the other, so each
 * store's outcome is known on its own (a version one store took is spent there, whatever the
 * others said). The command shown for `--submit` is the one `--submit` runs, never with
 * `--dry-run`; `--check-credentials` runs the same with `--dry-run`. Secrets stay in the
 * environment, named, never on the line.
 */
import { spawnSync } from 'node:child_process';
import { packageBin } from '../package-bin';
import { sendVersionNotes, type VersionNotes } from './amo';
import { STORE_NAMES, type Store, type StorePlan } from './stores';

/** How a release talks to the stores: not at all, asking whether the secrets are good, or submitting. */
export type Mode = 'dry-run' | 'check-credentials' | 'submit';

/** Zips named in the environment would add a store to every run (publish-browser-extension reads them). */
const ZIP_VARIABLES = ['CHROME_ZIP', 'EDGE_ZIP', 'FIREFOX_ZIP', 'OPERA_ZIP'];

/** `wxt submit`'s arguments for one store; `--dry-run` only for the credentials check. */
export const submitArgs = (plan: StorePlan, dryRun: boolean): string[] => [
  'wxt',
  'submit',
  ...(dryRun ? ['--dry-run'] : []),
  ...plan.flags,
];

/** The command as an operator would type it: what the release sets for the store, then npx wxt submit …. */
export const commandLine = (plan: StorePlan, dryRun: boolean): string =>
  [...Object.entries(plan.env).map(([k, v]) => `${k}=${v}`), 'npx', ...submitArgs(plan, dryRun)].join(' ');

export interface StoreOutcome {
  store: Store;
  ok: boolean;
  /** wxt submit's exit code; null when it was stopped by a signal. */
  status: number | null;
  /** addons.mozilla.org, once it took the version: whether its notes were set, in words. */
  notes?: { ok: boolean; text: string };
}

/** The version's notes for addons.mozilla.org (amo.ts), sent once `wxt submit` has made the version. */
export interface AmoStep {
  guid: string;
  version: string;
  notes: VersionNotes;
}

/** Sets the version's notes on addons.mozilla.org, and says what became of them. */
async function versionNotesStep(amo: AmoStep): Promise<{ ok: boolean; text: string }> {
  const languages = Object.keys(amo.notes.release_notes).join(', ');
  console.log(`\naddons.mozilla.org: the release notes (${languages}) and the reviewers' notes of ${amo.version}…`);
  const credentials = { issuer: process.env.FIREFOX_JWT_ISSUER ?? '', secret: process.env.FIREFOX_JWT_SECRET ?? '' };
  const sent = await sendVersionNotes(amo.guid, amo.version, amo.notes, credentials);
  return sent.ok
    ? { ok: true, text: `release notes (${languages}) and reviewers' notes set on ${amo.version}` }
    : {
        ok: false,
        text: `${amo.version} was made, but its notes were not set (${sent.reason}): paste whats-new/<language>.txt into its release notes and RELEASE.md's notes for reviewers into its notes to the reviewer, in the Developer Hub`,
      };
}

/** Runs each store's `wxt submit` (with `--dry-run` for the credentials check), its output shown as it comes. */
export async function runStores(
  plans: StorePlan[],
  mode: Exclude<Mode, 'dry-run'>,
  root: string,
  amo: AmoStep | null,
): Promise<StoreOutcome[]> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !ZIP_VARIABLES.includes(name)));
  const outcomes: StoreOutcome[] = [];
  for (const plan of plans) {
    const dryRun = mode === 'check-credentials';
    console.log(`\n${STORE_NAMES[plan.store]}: ${commandLine(plan, dryRun)}`);
    const [node, wxt] = packageBin('wxt', root);
    const run = spawnSync(node, [wxt, ...submitArgs(plan, dryRun).slice(1)], {
      cwd: root,
      stdio: 'inherit',
      env: { ...base, ...plan.env },
    });
    const outcome: StoreOutcome = { store: plan.store, ok: run.status === 0, status: run.status };
    if (plan.store === 'firefox' && outcome.ok && mode === 'submit' && amo) outcome.notes = await versionNotesStep(amo);
    outcomes.push(outcome);
  }
  return outcomes;
}

/** The outcome in a sentence per store. */
export const outcomeLines = (outcomes: StoreOutcome[], mode: Exclude<Mode, 'dry-run'>): string[] =>
  outcomes.map(
    (o) =>
      `  ${STORE_NAMES[o.store]}: ${
        o.ok
          ? mode === 'submit'
            ? 'took the version'
            : 'the secrets are good'
          : `wxt submit failed (${o.status === null ? 'stopped' : `exit ${o.status}`}); see its output above`
      }${o.notes ? `; ${o.notes.ok ? '' : 'BUT '}${o.notes.text}` : ''}`,
  );
