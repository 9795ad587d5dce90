/**
 * How the doctor and the pre-flight end when they cannot run (no key, an option missing or wrong, a
 * check that spends points without a terminal or `--yes-spend-points`, a fault of their own): exit
 * code 2, the reason on stderr, and with `--json` a JSON verdict on stdout that says so, so CI
 * never reads an empty file as a result. Unknown stays unknown: the verdict's `breaksPanelists`
 * (the pre-flight's `ok`) is null, not false. Everything goes through the output's redaction
 * (redact.ts), a fault's stack included, never Node's own handler for an uncaught error.
 */

export type Tool = 'panel-doctor' | 'panel-preflight';

/** Whether `--json` was asked for, read from the raw arguments: a command line that did not parse asked too. */
export const jsonAsked = (argv: readonly string[]): boolean => argv.includes('--json');

/** The JSON a command prints when it could not run. */
export function couldNotRunJson(tool: Tool, reason: string) {
  const unknown = tool === 'panel-doctor' ? { breaksPanelists: null } : { ok: null };
  return { tool, format: 1, verdict: { ran: false, ...unknown, reason } };
}

/**
 * Ends the process for an error: a known one (the command's own refusal) with its message and,
 * for a usage error, the usage; anything else with its stack. Exit code 2 either way.
 */
export function endCouldNotRun(
  tool: Tool,
  error: unknown,
  how: { known: boolean; usage: string | null; json: boolean },
): never {
  const message = error instanceof Error ? error.message : String(error);
  const shown = how.known ? message : error instanceof Error ? (error.stack ?? message) : message;
  console.error(how.usage ? `${shown}\n\n${how.usage}` : shown);
  if (how.json)
    console.log(JSON.stringify(couldNotRunJson(tool, how.known ? message : `${tool} failed: ${message}`), null, 2));
  process.exit(2);
}
