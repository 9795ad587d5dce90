/**
 * `npm run doctor -- [PANEL_API_URL] [options]`: reads the panel as the extension would and reports
 * what panelists would meet (OPERATORS.md, "The doctor"). The address defaults to the build's
 * apiBaseUrl (panel.config.json, then PANEL_API_BASE_URL); the key comes from PANEL_DOCTOR_TOKEN
 * or a prompt that does not echo it. Only reads are sent, unless the operator asks for write
 * checks. Progress goes to stderr, the report to stdout. Exit code: 0 when nothing the doctor
 * looked at would break panelists, 1 when something would, 2 when the doctor could not run.
 */
// First: the English catalogue must be in place before the extension's modules load.
import './doctor/english';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { PanelConfigError, buildSettings } from '../../utils/build/operator/panel-config';
import { diagnose } from './doctor/diagnose';
import { formatReport, jsonReport } from './doctor/report';
import { endCouldNotRun, jsonAsked } from './doctor/could-not-run';
import { redactOutput } from './doctor/redact';
import { breaksPanelists } from './doctor/report-types';
import { TokenUnavailable, readToken } from './doctor/token';
import type { SpendRequest } from './doctor/redeem-check';

const USAGE = `npm run doctor -- [PANEL_API_URL] [options]

  PANEL_API_URL              the panel's API address (default: apiBaseUrl of the build settings)
  --write-checks             also save one profile answer with the value it already holds, and judge
                             the answer (a test panelist's key only)
  --redeem-check <reward id> with --write-checks: redeem this reward once, after you confirm, and
                             judge the answer; this spends the test panelist's points
  --idempotency-check <reward id>
                             with --write-checks: send one redemption of this reward with one
                             Idempotency-Key three times, after you confirm: two copies together,
                             then one more once they answered; one charge in the history and the
                             balance means the panel honours the key (spends the points once, or twice)
  --yes-spend-points         confirm the checks that spend points without being asked (no terminal)
  --json                     the report as JSON on stdout (for CI), with the same exit code
  --allow-origin <origin>    follow a redirect to this other origin too, to see what answers there
                             (the key is sent there); may be given more than once
  --help                     this text

The key: PANEL_DOCTOR_TOKEN, or typed at the prompt (nothing shows). Progress goes to stderr, the
report to stdout. Exit code 0: nothing the doctor looked at would break panelists; 1: something
would; 2: the doctor could not run.`;

class UsageError extends Error {}

interface Args {
  baseUrl: string | undefined;
  writeChecks: boolean;
  redeemId: number | null;
  idempotencyId: number | null;
  yesSpendPoints: boolean;
  allowOrigins: string[];
  json: boolean;
  help: boolean;
}

/** A reward id given to an option that spends points: a whole number, and only with --write-checks. */
function rewardId(option: string, value: string | undefined, writeChecks: boolean): number | null {
  if (value === undefined) return null;
  if (!/^\d+$/.test(value.trim()))
    throw new UsageError(`--${option} takes a reward id (a whole number), not "${value}".`);
  if (!writeChecks) throw new UsageError(`--${option} is a write check: give --write-checks with it.`);
  return Number(value.trim());
}

function parse(argv: string[]): Args {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        'write-checks': { type: 'boolean' },
        'redeem-check': { type: 'string' },
        'idempotency-check': { type: 'string' },
        'yes-spend-points': { type: 'boolean' },
        json: { type: 'boolean' },
        'allow-origin': { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) throw new UsageError(`One panel address at a time, not ${positionals.length}.`);
  const writeChecks = values['write-checks'] === true;
  const redeemId = rewardId('redeem-check', values['redeem-check'], writeChecks);
  const idempotencyId = rewardId('idempotency-check', values['idempotency-check'], writeChecks);
  if (values['yes-spend-points'] && redeemId === null && idempotencyId === null)
    throw new UsageError('--yes-spend-points confirms --redeem-check or --idempotency-check, and neither was given.');
  const allowOrigins = (values['allow-origin'] ?? []).map((origin) => {
    try {
      const url = new URL(origin);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error();
      return url.origin;
    } catch {
      throw new UsageError(`--allow-origin takes an origin such as https://api.example.com, not "${origin}".`);
    }
  });
  return {
    baseUrl: positionals[0],
    writeChecks,
    redeemId,
    idempotencyId,
    yesSpendPoints: values['yes-spend-points'] === true,
    allowOrigins,
    json: values.json === true,
    help: values.help === true,
  };
}

/** The operator's yes to a check that spends points: typed at the terminal, or given as --yes-spend-points. */
function confirmation(rewardId: number, yes: boolean): SpendRequest {
  return {
    rewardId,
    async confirm(reward) {
      const times =
        reward.redemptions === 2
          ? 'with one Idempotency-Key, two copies together and a third once they answered (charged twice if the panel ignores the key)'
          : 'once';
      const what = `reward #${reward.id} “${reward.name}” ${times}, for ${reward.points === null ? 'an unknown number of' : reward.points.toLocaleString('en')} points each (balance: ${reward.balance === null ? 'unknown' : reward.balance.toLocaleString('en')})`;
      if (yes) {
        process.stderr.write(`Redeeming ${what}: confirmed by --yes-spend-points.\n`);
        return true;
      }
      const prompt = createInterface({ input: process.stdin, output: process.stderr });
      try {
        const typed = await prompt.question(
          `Redeem ${what}? This spends the test panelist's points. Type the reward id (${reward.id}) to redeem, anything else not to: `,
        );
        return typed.trim() === String(reward.id);
      } finally {
        prompt.close();
      }
    },
  };
}

/** Every write to stdout and stderr from here on, whatever prints it, without the key (redact.ts). */
const output = redactOutput();

async function main(): Promise<number> {
  const args = parse(process.argv.slice(2));
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  const spends = args.redeemId !== null || args.idempotencyId !== null;
  if (spends && !args.yesSpendPoints && !process.stdin.isTTY) {
    throw new UsageError(
      '--redeem-check and --idempotency-check ask you to confirm at a terminal; without one, add --yes-spend-points.',
    );
  }
  const settings = buildSettings(process.env, 'production');
  const baseUrl = args.baseUrl ?? settings.apiBaseUrl;
  if (!baseUrl)
    throw new UsageError(
      'Which panel? npm run doctor -- https://api.your-panel.example (or set apiBaseUrl in panel.config.json).',
    );
  const token = await readToken(process.env, process.stdin, process.stderr);
  output.hide(token);
  if (args.writeChecks) {
    process.stderr.write(
      "\nWRITE CHECKS ON: use a test panelist's key only. The doctor saves one profile answer with the value it already holds" +
        (args.redeemId === null ? '' : `, redeems reward #${args.redeemId} once you confirm`) +
        (args.idempotencyId === null
          ? ''
          : `, sends a redemption of reward #${args.idempotencyId} with one Idempotency-Key two or three times once you confirm`) +
        (spends ? ": that spends the test panelist's points.\n\n" : '.\n\n'),
    );
  }
  const report = await diagnose({
    baseUrl,
    token,
    balanceVariable: settings.balanceVariable,
    writeChecks: args.writeChecks,
    redeem: args.redeemId === null ? null : confirmation(args.redeemId, args.yesSpendPoints),
    idempotency: args.idempotencyId === null ? null : confirmation(args.idempotencyId, args.yesSpendPoints),
    allowOrigins: args.allowOrigins,
    progress: (text) => void process.stderr.write(text),
  });
  process.stderr.write('\n');
  console.log(args.json ? JSON.stringify(jsonReport(report), null, 2) : formatReport(report));
  return breaksPanelists(report) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) =>
    endCouldNotRun('panel-doctor', error, {
      known: error instanceof PanelConfigError || error instanceof TokenUnavailable || error instanceof UsageError,
      usage: error instanceof UsageError ? USAGE : null,
      json: jsonAsked(process.argv.slice(2)),
    }),
);
