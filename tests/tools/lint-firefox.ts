/**
 * `npm run lint:firefox`: Mozilla's linter (web-ext lint, the addons-linter AMO runs on upload)
 * over a release build of the Firefox add-on. Passes with no errors and no warnings, except the
 * two innerHTML sites inside vendored libraries that CONTRIBUTING.md justifies ("Firefox lint"); each
 * of those is recognised by the code around it, so any other warning, or one in our own code,
 * fails. `npm run lint:firefox -- DIR` lints an existing build instead of making one.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { packageBin } from './package-bin';

interface Message {
  code: string;
  message: string;
  description: string;
  file?: string;
  line?: number;
  column?: number;
}
interface Report {
  summary: { errors: number; warnings: number; notices: number };
  errors: Message[];
  warnings: Message[];
  notices: Message[];
}

/** Warnings in vendored code that cannot be fixed from here; see CONTRIBUTING.md, "Firefox lint". */
const ACCEPTED: Array<{ why: string; code: string; file: RegExp; around: RegExp }> = [
  {
    why: "Preact's renderer applying dangerouslySetInnerHTML, which no component of ours uses (reward details set DOM nodes)",
    code: 'UNSAFE_VAR_ASSIGNMENT',
    file: /^chunks\/.+\.js$/,
    around: /\.innerHTML=\w+\.__html\b/,
  },
  {
    why: 'DOMPurify parsing untrusted HTML into an inert document it then sanitizes',
    code: 'UNSAFE_VAR_ASSIGNMENT',
    file: /^chunks\/purify\.es-[\w-]+\.js$/,
    around: /\.documentElement\.innerHTML=/,
  },
];

function releaseBuild(): { dir: string; cleanup(): void } {
  const outDir = mkdtempSync(join(tmpdir(), 'panel-lint-'));
  // PANEL_CONFIG none: the project's release build, whatever panel.config.json a developer keeps here.
  const env: NodeJS.ProcessEnv = { ...process.env, PANEL_OUT_DIR: outDir, PANEL_CONFIG: 'none' };
  // A release build: nothing from development may leak in.
  delete env.PANEL_API_BASE_URL;
  delete env.PANEL_DEV_TOKEN;
  const [node, wxt] = packageBin('wxt');
  execFileSync(node, [wxt, 'build', '--browser', 'firefox'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  return { dir: join(outDir, 'firefox-mv2'), cleanup: () => rmSync(outDir, { recursive: true, force: true }) };
}

function lint(dir: string): Report {
  const [node, webExt] = packageBin('web-ext');
  const run = spawnSync(node, [webExt, 'lint', '--source-dir', dir, '--output', 'json', '--no-config-discovery'], {
    encoding: 'utf8',
  });
  try {
    return JSON.parse(run.stdout) as Report;
  } catch {
    throw new Error(`web-ext lint gave no report (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
  }
}

/** Which accepted vendored site a warning is, judged by the built code at its position. */
function acceptedAs(dir: string, w: Message): string | undefined {
  if (!w.file || w.line === undefined || w.column === undefined) return undefined;
  const line = readFileSync(join(dir, w.file), 'utf8').split('\n')[w.line - 1] ?? '';
  const around = line.slice(Math.max(0, w.column - 80), w.column + 80);
  return ACCEPTED.find((a) => a.code === w.code && a.file.test(w.file!) && a.around.test(around))?.why;
}

const given = process.argv[2];
const build = given ? { dir: resolve(given), cleanup() {} } : releaseBuild();
try {
  const report = lint(build.dir);
  const { errors, warnings, notices } = report.summary;
  console.log(
    `web-ext lint ${given ?? '(release build, firefox-mv2)'}: ${errors} errors, ${warnings} warnings, ${notices} notices`,
  );
  const describe = (m: Message) =>
    `${m.code} ${m.file ?? ''}${m.line ? `:${m.line}:${m.column}` : ''} — ${m.message}: ${m.description}`;
  let failed = errors;
  const used = new Set<string>();
  for (const e of report.errors) console.log(`  error: ${describe(e)}`);
  for (const w of report.warnings) {
    const why = acceptedAs(build.dir, w);
    // Each vendored site is accepted once; a second match is new code and fails.
    if (why && !used.has(why)) {
      used.add(why);
      console.log(`  accepted warning (CONTRIBUTING.md, "Firefox lint"): ${w.code} ${w.file} — ${why}`);
    } else {
      failed++;
      console.log(`  warning: ${describe(w)}`);
    }
  }
  for (const n of report.notices) console.log(`  notice: ${describe(n)}`);
  console.log(failed ? `Firefox lint failed: ${failed} error(s) or unaccepted warning(s).` : 'Firefox lint passed.');
  process.exitCode = failed ? 1 : 0;
} finally {
  build.cleanup();
}
