/**
 * `npm run preflight -- [PANEL_API_URL] [--json]`: what an operator runs before every release, and
 * what CI runs before it submits (OPERATORS.md, "Pre-flight"). In one report, with one exit code:
 *
 * - the build settings, checked as the build checks them;
 * - the version: one both stores take, above the last release tag, with a CHANGELOG.md entry;
 * - the doctor, reads only, against the panel (its whole report, also in the JSON);
 * - the profile's questions against the data kinds the build declares (profileData);
 * - the privacy policy's address answering, without a template [bracket] left;
 * - sign-in: every redirect URL the build needs, listed and tried with the authorization server,
 *   and the server's metadata, where it publishes any, against the build's endpoints.
 *
 * The key is PANEL_DOCTOR_TOKEN (a test panelist's), or typed at a prompt. Exit code 0: nothing
 * would break panelists or a store's review; 1: something would; 2: it could not run.
 */
// First: the English catalogue must be in place before the extension's modules load.
import './doctor/english';
import { parseArgs } from 'node:util';
import { PanelConfigError, formatWarnings } from '../../utils/build/operator/panel-config';
import { checkSettings } from '../../utils/build/operator/settings-check';
import type { VariableDefinition } from '../../utils/types';
import { diagnose } from './doctor/diagnose';
import { formatReport, jsonReport } from './doctor/report';
import { endCouldNotRun, jsonAsked } from './doctor/could-not-run';
import { redactOutput } from './doctor/redact';
import { breaksPanelists, type Report } from './doctor/report-types';
import { TokenUnavailable, readToken } from './doctor/token';
import { dataKindChecks, policyCheck, versionChecks, type Check } from './preflight/checks';
import { signInChecks } from './preflight/sign-in';

const USAGE = `npm run preflight -- [PANEL_API_URL] [--json]

  PANEL_API_URL   the panel's API address (default: apiBaseUrl of the build settings)
  --json          the report as JSON on stdout (the doctor's report inside it), for CI

The key: PANEL_DOCTOR_TOKEN (a test panelist's), or typed at the prompt. Exit code 0: nothing would
break panelists or a store's review; 1: something would; 2: the pre-flight could not run.`;

class UsageError extends Error {}

const MARK: Record<Check['level'], string> = { ok: 'ok  ', info: 'info', warn: 'WARN', fail: 'FAIL' };

function text(checks: Check[], doctor: Report | null): string {
  const lines = ['Pre-flight', ''];
  for (const c of checks) {
    lines.push(`  ${MARK[c.level]}  ${c.topic}: ${c.text}`);
    if (c.change && (c.level === 'warn' || c.level === 'fail')) lines.push(`        Change: ${c.change}`);
  }
  const fails = checks.filter((c) => c.level === 'fail').length + (doctor && breaksPanelists(doctor) ? 1 : 0);
  lines.push(
    '',
    fails
      ? `Pre-flight: ${fails} problem${fails === 1 ? '' : 's'}; fix before releasing.`
      : 'Pre-flight: nothing found that would break panelists or a store review.',
  );
  return `${doctor ? `${formatReport(doctor)}\n\n` : ''}${lines.join('\n')}`;
}

/** Every write to stdout and stderr from here on, whatever prints it, without the key (doctor/redact.ts). */
const output = redactOutput();

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: process.argv.slice(2),
      allowPositionals: true,
      strict: true,
      options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.values.help) return (console.log(USAGE), 0);
  if (parsed.positionals.length > 1) throw new UsageError('One panel address at a time.');
  const checks: Check[] = [];
  let settings;
  try {
    const checked = await checkSettings(process.env, 'production');
    settings = checked.settings;
    checks.push({
      level: checked.warnings.length ? 'warn' : 'ok',
      topic: 'Build settings',
      text: checked.warnings.length
        ? formatWarnings(checked.warnings)
        : 'every setting checks, as the build checks them.',
    });
  } catch (error) {
    if (!(error instanceof PanelConfigError)) throw error;
    checks.push({
      level: 'fail',
      topic: 'Build settings',
      text: error.problems.join('; '),
      change: 'Fix panel.config.json (OPERATORS.md, "Build settings").',
    });
  }
  checks.push(...versionChecks(process.cwd()));
  const baseUrl = parsed.positionals[0] ?? settings?.apiBaseUrl;
  let doctor: Report | null = null;
  let questions: VariableDefinition[] | null = null;
  if (!baseUrl)
    checks.push({
      level: 'fail',
      topic: 'Panel',
      text: 'no panel to check: apiBaseUrl is not set and no address was given.',
      change: 'Set apiBaseUrl, or give the address: npm run preflight -- https://api.your-panel.example.',
    });
  else {
    const token = await readToken(process.env, process.stdin, process.stderr);
    output.hide(token);
    doctor = await diagnose({
      baseUrl,
      token,
      balanceVariable: settings?.balanceVariable ?? 'POINTS_BALANCE',
      progress: (line) => void process.stderr.write(line),
      onRead: (data) => void (questions = data.variablesMeta ?? null),
    });
  }
  if (settings) {
    checks.push(...dataKindChecks(settings, questions), await policyCheck(settings), ...(await signInChecks(settings)));
  }
  const failed = checks.some((c) => c.level === 'fail') || (doctor !== null && breaksPanelists(doctor));
  if (parsed.values.json) {
    const count = (level: Check['level']) => checks.filter((c) => c.level === level).length;
    console.log(
      JSON.stringify(
        {
          tool: 'panel-preflight',
          format: 1,
          checks,
          doctor: doctor && jsonReport(doctor),
          verdict: { ran: true, ok: !failed, failures: count('fail'), warnings: count('warn') },
        },
        null,
        2,
      ),
    );
  } else console.log(text(checks, doctor));
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) =>
    endCouldNotRun('panel-preflight', error, {
      known: error instanceof UsageError || error instanceof TokenUnavailable,
      usage: error instanceof UsageError ? USAGE : null,
      json: jsonAsked(process.argv.slice(2)),
    }),
);
