/**
 * The stages `npm run check` and `npm test` share, and how they run: each a process of its own,
 * all started at once (they read the same files and write nothing but their caches, so none waits
 * for another), each reported with its time when it ends, its output shown only when it fails.
 *
 * The caches live in `.output/cache/` (ignored by git, Prettier and Oxlint; never inside
 * `node_modules`, which the worktrees here share): the typecheck's build info, Knip's and
 * Prettier's per-file results. Each tool checks its cache against the files' content, so a warm run
 * reads again only what changed, and a cold one (CI) does the full work.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const CACHE_DIR = '.output/cache';

export interface Stage {
  /** Said when it passes or fails. */
  name: string;
  /** A binary of `node_modules/.bin` and its arguments (not `npx`, which costs a second of its own). */
  command: readonly string[];
  /** What to run to fix what it found, said when it fails. */
  fix?: string;
}

export const STATIC_CHECKS: readonly Stage[] = [
  {
    name: 'typecheck',
    command: ['tsc', '--noEmit', '-p', '.', '--incremental', '--tsBuildInfoFile', `${CACHE_DIR}/tsc.tsbuildinfo`],
  },
  // No import circle, shared code never reaching up, no build code in a bundle (lint-imports.ts).
  { name: 'import rules', command: ['tsx', 'tests/tools/lint-imports.ts'] },
  { name: 'oxlint', command: ['oxlint'] },
  { name: 'knip', command: ['knip', '--cache', '--cache-location', `${CACHE_DIR}/knip`] },
  // Prettier in two halves that together are `.`: one process formats on one core, and alone it was
  // the longest stage by a third (38 s of npm test's 40 s on two cores, the others done by 29 s).
  formatStage('format (tests)', 'tests', ['tests']),
  formatStage('format (the rest)', 'rest', ['.', '!tests/**']),
];

/** `prettier --check` over `targets`, with a cache of its own (two processes never write one file). */
function formatStage(name: string, cache: string, targets: readonly string[]): Stage {
  const cacheFlags = ['--cache', '--cache-location', `${CACHE_DIR}/prettier-${cache}`, '--cache-strategy', 'content'];
  return { name, command: ['prettier', '--check', ...cacheFlags, ...targets], fix: 'npm run format' };
}

export interface Outcome {
  stage: Stage;
  ok: boolean;
  seconds: number;
  output: string;
}

/** Runs one stage to its end, its stdout and stderr kept together in the order they came. */
export function runStage(stage: Stage, env: NodeJS.ProcessEnv = process.env): Promise<Outcome> {
  const started = performance.now();
  const [bin, ...args] = stage.command;
  return new Promise((resolve) => {
    const child = spawn(join('node_modules', '.bin', bin ?? ''), args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    const done = (ok: boolean, extra = '') =>
      resolve({
        stage,
        ok,
        seconds: (performance.now() - started) / 1000,
        output: Buffer.concat(chunks).toString('utf8') + extra,
      });
    child.on('error', (error) => done(false, `\n${error.message}\n`));
    child.on('close', (code) => done(code === 0));
  });
}

/** One line per stage as it ends, with the output of a failed one under it. */
export function report({ stage, ok, seconds, output }: Outcome): void {
  const time = `${seconds.toFixed(1)} s`;
  if (ok) {
    console.log(`✓ ${stage.name} (${time})`);
    return;
  }
  console.log(`✗ ${stage.name} failed (${time})${stage.fix ? `: \`${stage.fix}\` fixes it` : ''}`);
  console.log(output.trimEnd().replace(/^/gm, '  '));
}

/** Every stage at once; true when all passed. */
export async function runAll(stages: readonly Stage[]): Promise<boolean> {
  mkdirSync(CACHE_DIR, { recursive: true });
  const outcomes = await Promise.all(
    stages.map((stage) => runStage(stage).then((outcome) => (report(outcome), outcome))),
  );
  return outcomes.every((outcome) => outcome.ok);
}
