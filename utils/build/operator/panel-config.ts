/**
 * The operator's build settings: panel.config.json (or .jsonc) at the project's root, then the
 * environment, which overrides the file, then each setting's default (OPERATORS.md, "Build settings").
 * Everything is checked against the settings table before anything is built; a problem is one
 * error naming the key, where its value came from, and what to write instead.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import * as v from 'valibot';
import { defaultTabRedirect, SANDBOX_DEV_URL, type BuildSettings } from '../../build-settings';
import { NO_METADATA, type ServerFacts } from '../../sign-in-server';
import { GROUPS, SETTING_ROWS, type PanelSettings, type SettingRow } from './settings-table';

/** Looked for at the project's root, in this order; both at once is an error. */
export const CONFIG_FILES = ['panel.config.jsonc', 'panel.config.json'] as const;
/** PANEL_CONFIG: another file, or this word for none (the project's own test builds). */
export const NO_CONFIG = 'none';

type Env = Record<string, string | undefined>;

/** The settings with where each came from; `icon` is an absolute path ('' for today's icon). */
export interface ResolvedSettings extends PanelSettings {
  /** Sandbox token for development builds only, from PANEL_DEV_TOKEN; never in a release build. */
  devToken: string;
  /** The sign-in server's metadata, once read (oauth-discovery.ts); NO_METADATA until then. */
  oauthServer: ServerFacts;
  /** The config file read, absolute; null when there is none. */
  configFile: string | null;
  /** Each setting's path (`oauth.clientId`) → 'file', 'environment' or 'default'. */
  sources: Record<string, 'file' | 'environment' | 'default'>;
}

export class PanelConfigError extends Error {
  constructor(
    readonly problems: string[],
    /** What is allowed but likely wrong (settingsWarnings), told with the problems. */
    readonly warnings: string[] = [],
  ) {
    super(
      `The panel settings have ${problems.length === 1 ? 'a problem' : `${problems.length} problems`}; nothing was built:\n` +
        problems.map((p) => `  - ${p}`).join('\n') +
        (warnings.length ? `\n${formatWarnings(warnings, 'Also')}` : '') +
        '\nEvery key is in panel.config.example.json and described in OPERATORS.md ("Build settings").',
    );
    this.name = 'PanelConfigError';
    // The message says it all; a stack trace under it would only bury it.
    this.stack = '';
  }
}

/** The config file to read: PANEL_CONFIG's, else the one at the root, else none. */
export function configFilePath(env: Env, root: string): string | null {
  const chosen = env.PANEL_CONFIG?.trim();
  if (chosen === NO_CONFIG) return null;
  if (chosen) {
    const path = resolve(root, chosen);
    if (!existsSync(path)) throw new PanelConfigError([`PANEL_CONFIG names ${chosen}, and there is no such file`]);
    return path;
  }
  const found = CONFIG_FILES.map((name) => resolve(root, name)).filter((path) => existsSync(path));
  if (found.length > 1) throw new PanelConfigError([`both ${CONFIG_FILES.join(' and ')} are here: keep one`]);
  return found[0] ?? null;
}

/** The file's structure: known keys only, every value a string (groups as objects of strings). */
const fileSchema = v.strictObject(
  {
    ...Object.fromEntries(
      SETTING_ROWS.filter((row) => !row.group).map((row) => [row.key, v.optional(v.string('must be a string'))]),
    ),
    ...Object.fromEntries(
      GROUPS.map((group) => [
        group,
        v.optional(
          v.strictObject(
            Object.fromEntries(
              SETTING_ROWS.filter((row) => row.group === group).map((row) => [
                row.key,
                v.optional(v.string('must be a string')),
              ]),
            ),
            'must be an object',
          ),
        ),
      ]),
    ),
  },
  'must be an object of settings',
);

function describeFileIssue(issue: v.BaseIssue<unknown>, name: string): string {
  const path = v.getDotPath(issue);
  if (issue.type === 'strict_object' && issue.kind === 'schema' && issue.expected === 'never') {
    const where = path?.includes('.') ? path.slice(0, path.lastIndexOf('.')) : null;
    const known = where
      ? SETTING_ROWS.filter((r) => r.group === where).map((r) => r.key)
      : [...SETTING_ROWS.filter((r) => !r.group).map((r) => r.key), ...GROUPS];
    return `${name} › ${path}: unknown key (known${where ? ` in ${where}` : ''}: ${known.join(', ')})`;
  }
  return `${name}${path ? ` › ${path}` : ''}: ${issue.message}`;
}

/** A file named from the root when it is inside it, else by its whole path. */
function shownPath(path: string, root: string): string {
  const inside = relative(root, path);
  return inside && !inside.startsWith('..') ? inside : path;
}

/** The file's values by setting path ('' and missing alike absent), and what is wrong with its shape. */
function readFile(path: string, root: string): { values: Map<string, string>; problems: string[] } {
  const name = shownPath(path, root);
  const text = readFileSync(path, 'utf8');
  const errors: ParseError[] = [];
  // A .json file is JSON: every tool an operator points at it (an editor, jq, a CI step) refuses
  // comments and trailing commas. A .jsonc file may hold both.
  const lenient = path.endsWith('.jsonc');
  const data: unknown = parse(text, errors, { allowTrailingComma: lenient, disallowComments: !lenient });
  if (errors.length > 0) {
    // One problem per place: a trailing comma is both "property name expected" and "value expected".
    const first = errors.filter((e, i) => errors.findIndex((o) => o.offset === e.offset) === i);
    throw new PanelConfigError(
      first.slice(0, 5).map((e) => {
        const before = text.slice(0, e.offset).split('\n');
        return `${name}:${before.length}:${(before.at(-1)?.length ?? 0) + 1}: ${parseProblem(text, e)}`;
      }),
    );
  }
  const parsed = v.safeParse(fileSchema, data);
  const problems = parsed.success ? [] : parsed.issues.map((issue) => describeFileIssue(issue, name));
  const values = new Map<string, string>();
  // What is well formed is still read, so every problem of the file is told at once.
  const top = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  for (const row of SETTING_ROWS) {
    const holder = row.group ? top[row.group] : top;
    const value =
      typeof holder === 'object' && holder !== null ? (holder as Record<string, unknown>)[row.key] : undefined;
    if (typeof value === 'string' && value.trim()) values.set(row.path, value.trim());
  }
  return { values, problems };
}

/** What is wrong where a config file stops being JSON, in words: a trailing comma and a comment said as such. */
function parseProblem(text: string, error: ParseError): string {
  const code = printParseErrorCode(error.error);
  if (code === 'InvalidCommentToken')
    return 'a comment, which JSON does not allow (name the file panel.config.jsonc to keep comments)';
  // A comma followed by nothing but blanks up to the closing bracket the parser stopped at.
  if (/,\s*$/.test(text.slice(0, error.offset)) && /^[}\]]/.test(text.slice(error.offset)))
    return 'a trailing comma, which JSON does not allow (remove it, or name the file panel.config.jsonc)';
  return `not JSON (${code})`;
}

/** panel.config.example.json as the table has it: every key, with its example value. */
export function exampleConfig(): Record<string, unknown> {
  return nest(Object.fromEntries(SETTING_ROWS.map((row) => [row.path, row.setting.example])));
}

/** Warnings as the build prints them: on their own (the build goes on), or `Also` after the problems. */
export function formatWarnings(warnings: string[], lead?: 'Also'): string {
  const count = warnings.length === 1 ? 'a warning' : `${warnings.length} warnings`;
  const heading = lead ? `${lead} ${count}:` : `The panel settings have ${count} (the build goes on):`;
  return `${heading}\n${warnings.map((w) => `  - ${w}`).join('\n')}`;
}

/**
 * The settings for a build in `mode` (`development` points at the sandbox by default), from the
 * config file, then `env` over it. Throws a {@link PanelConfigError} naming every problem.
 */
export function buildSettings(env: Env, mode: string, root: string = process.cwd()): ResolvedSettings {
  const { settings, problems } = resolveSettings(env, mode, root);
  if (problems.length > 0) throw new PanelConfigError(problems);
  return settings;
}

/**
 * The settings and every problem found in them, so more checks can add theirs to the same list
 * (settings-check.ts). A value with a problem is replaced by its default. Throws only when the
 * file cannot be read at all (not JSON; two files; PANEL_CONFIG naming none).
 */
export function resolveSettings(
  env: Env,
  mode: string,
  root: string = process.cwd(),
): { settings: ResolvedSettings; problems: string[] } {
  const file = configFilePath(env, root);
  const { values: fromFile, problems } = file
    ? readFile(file, root)
    : { values: new Map<string, string>(), problems: [] };
  const fileName = file ? shownPath(file, root) : '';
  const values: Record<string, string> = {};
  const sources: ResolvedSettings['sources'] = {};

  for (const row of SETTING_ROWS) {
    const fromEnv = env[row.setting.env]?.trim();
    const raw = fromEnv || fromFile.get(row.path);
    sources[row.path] = fromEnv ? 'environment' : raw ? 'file' : 'default';
    if (!raw) {
      values[row.path] = row.path === 'apiBaseUrl' && mode === 'development' ? SANDBOX_DEV_URL : row.setting.fallback;
      continue;
    }
    const checked = v.safeParse(row.setting.schema, raw);
    const where = fromEnv ? `${row.setting.env} (environment)` : `${fileName} › ${row.path}`;
    if (checked.success) {
      values[row.path] = checked.output;
      continue;
    }
    // A long value (a key) is not repeated: it would bury the message, and may be a secret pasted by mistake.
    problems.push(
      `${where}: ${raw.length <= 60 ? `${JSON.stringify(raw)} ` : ''}${checked.issues[0]?.message ?? 'is not valid'}`,
    );
    values[row.path] = row.setting.fallback;
  }

  problems.push(...groupProblems(values), ...signInProblems(values));
  if (values.icon) {
    // A path in the file is read from the file's folder; one from the environment from the root.
    values.icon = resolve(sources.icon === 'file' && file ? dirname(file) : root, values.icon);
    if (!existsSync(values.icon)) problems.push(`icon: there is no file at ${values.icon}`);
  }
  const authorize = values['oauth.authorizationEndpoint'];
  if (!values['oauth.issuer'] && authorize) values['oauth.issuer'] = new URL(authorize).origin;
  // Sign-in in a tab comes back to the panel's own origin, which the extension may read (its host permission).
  if (!values['oauth.tabRedirectUrl'] && (authorize || values['oauth.issuer']) && values.apiBaseUrl)
    values['oauth.tabRedirectUrl'] = defaultTabRedirect(values.apiBaseUrl);
  const settings = {
    ...(nest(values) as unknown as PanelSettings),
    devToken: mode === 'development' ? (env.PANEL_DEV_TOKEN ?? '') : '',
    oauthServer: NO_METADATA,
    configFile: file,
    sources,
  };
  return { settings, problems };
}

/**
 * A group that is set at all must have every one of its required settings ("a missing OAuth half"),
 * each unless the setting it can be read from is set (the endpoints, from `oauth.issuer`'s metadata).
 */
function groupProblems(values: Record<string, string>): string[] {
  return GROUPS.flatMap((group) => {
    const rows = SETTING_ROWS.filter((row) => row.group === group);
    const set = rows.filter((row) => values[row.path]);
    const missing = rows.filter((row) => requiredHere(row, values) && !values[row.path]);
    if (set.length === 0 || missing.length === 0) return [];
    const always = rows.filter((row) => row.setting.required && !row.setting.unless).map((row) => row.path);
    const either = rows.filter((row) => row.setting.unless).map((row) => row.path);
    const from = [...new Set(rows.flatMap((row) => (row.setting.unless ? [`${group}.${row.setting.unless}`] : [])))];
    const needs = either.length
      ? `${[...always, ...either].join(', ')} together, or ${[...always, ...from].join(' and ')} (whose metadata names ${either.join(' and ')})`
      : `${always.join(', ')} together`;
    return [
      `${missing.map((row) => `${row.path} (${row.setting.env})`).join(' and ')} missing: ${group} needs ${needs} (set: ${set.map((row) => row.path).join(', ')})`,
    ];
  });
}

/** Whether a row must be set, given the others: a required one, unless what it can be read from is set. */
function requiredHere(row: SettingRow, values: Record<string, string>): boolean {
  return !!row.setting.required && !(row.setting.unless && values[`${row.group}.${row.setting.unless}`]);
}

function signInProblems(values: Record<string, string>): string[] {
  const signIn = SETTING_ROWS.filter((row) => row.group === 'oauth' && row.setting.required).every(
    (row) => values[row.path] || !requiredHere(row, values),
  );
  if (signIn && !values.apiBaseUrl)
    return ['apiBaseUrl (PANEL_API_BASE_URL) missing: sign-in needs the panel API it signs in to'];
  // The extension reads the tab's address when it comes back: only on the panel's origin may it (its host permission).
  const tab = values['oauth.tabRedirectUrl'];
  if (tab && values.apiBaseUrl && new URL(tab).origin !== new URL(values.apiBaseUrl).origin) {
    return [
      `oauth.tabRedirectUrl (PANEL_OAUTH_TAB_REDIRECT_URL) ${tab} is not on the panel's origin ${new URL(values.apiBaseUrl).origin}: the extension may read only that origin's addresses when the sign-in tab comes back`,
    ];
  }
  return [];
}

/** `{ 'oauth.clientId': x }` → `{ oauth: { clientId: x } }`. */
function nest(values: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const row of SETTING_ROWS) {
    if (!row.group) out[row.key] = values[row.path];
    else ((out[row.group] ??= {}) as Record<string, string>)[row.key] = values[row.path] ?? '';
  }
  return out;
}

/** What the pages and the worker are built with: no build-only setting, nothing about the file. */
export function runtimeSettings(settings: ResolvedSettings): BuildSettings {
  const { configFile: _file, sources: _sources, ...rest } = settings;
  const out: Record<string, unknown> = { ...rest };
  for (const row of SETTING_ROWS) if (row.setting.buildOnly && !row.group) delete out[row.key];
  return out as unknown as BuildSettings;
}
