/**
 * One pass over the operator's settings before anything is built, so one run says every problem: every
 * problem of the config file and the environment, of the icon, and of the manifest's description
 * in every shipped language, told at once as one list without a stack trace; and warnings for
 * what is allowed but likely wrong. wxt.config.ts runs it for every build; `npm run store` runs it
 * before building anything.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { iconProblems } from './icons';
import { LOCALES_DIR, messageLookup, readMessages, shippedLocales } from './locale-messages';
import { PanelConfigError, resolveSettings, type ResolvedSettings } from './panel-config';
import { withServerMetadata } from './oauth-discovery';
import { LISTING_MESSAGES, SUMMARY_MAX, manifestDescription } from './store-listing';

type Env = Record<string, string | undefined>;

/**
 * The manifest's description is the Chrome Web Store's summary, which takes at most
 * {@link SUMMARY_MAX} characters, in every language: one problem naming each language it overflows
 * in, and the longest name that fits them all.
 */
export function descriptionProblems(panelName: string, localesDir: string): string[] {
  const over: string[] = [];
  const missing: string[] = [];
  let longestText = 0;
  for (const locale of shippedLocales(localesDir)) {
    const text = messageLookup(readMessages(localesDir, locale))(LISTING_MESSAGES.summary);
    if (!text) {
      missing.push(locale);
      continue;
    }
    longestText = Math.max(longestText, text.length);
    const length = manifestDescription(panelName, text).length;
    if (length > SUMMARY_MAX) over.push(`${locale} (${length})`);
  }
  const problems = missing.map(
    (locale) =>
      `${localesDir}/${locale}/messages.json has no ${LISTING_MESSAGES.summary}: the manifest's description in that language would be empty`,
  );
  if (over.length) {
    const fits = SUMMARY_MAX - longestText - ': '.length;
    problems.push(
      `panelName ${JSON.stringify(panelName)} (${panelName.length} characters) makes the manifest's description ("name: description") longer than the ` +
        `${SUMMARY_MAX} characters the Chrome Web Store takes in ${over.join(', ')}: a name of at most ${fits} characters fits every language ` +
        `(or shorten ${LISTING_MESSAGES.summary} in those languages' messages.json)`,
    );
  }
  return problems;
}

/** The panel API paths the client adds to `apiBaseUrl` (utils/api/client.ts: `/v1/panel/…`). */
const API_PREFIX = '/v1/panel';

/** What the settings allow but is most likely a mistake. */
export function settingsWarnings(settings: Pick<ResolvedSettings, 'apiBaseUrl'>): string[] {
  const warnings: string[] = [];
  if (settings.apiBaseUrl) {
    const path = new URL(settings.apiBaseUrl).pathname.replace(/\/+$/, '');
    const doubled = [API_PREFIX, '/v1'].find((end) => path.toLowerCase().endsWith(end));
    if (doubled) {
      const base = settings.apiBaseUrl.replace(/\/+$/, '');
      warnings.push(
        `apiBaseUrl ${base} ends in ${doubled}: the extension adds ${API_PREFIX}/… itself, so it would ask for ${base}${API_PREFIX}/rewards. ` +
          `Leave ${doubled} out (${base.slice(0, base.length - doubled.length) || base}) unless the panel really answers there; ` +
          '`npm run doctor` shows what it answers.',
      );
    }
  }
  return warnings;
}

export interface CheckedSettings {
  settings: ResolvedSettings;
  warnings: string[];
}

/**
 * The settings for a build in `mode`, checked in one pass: the file and the environment
 * (panel-config.ts), the icon, and the description in every language of `localesDir`. Throws one
 * {@link PanelConfigError} listing every problem (and the warnings); otherwise returns the warnings
 * for the caller to print.
 */
export async function checkSettings(
  env: Env,
  mode: string,
  root: string = process.cwd(),
  localesDir: string = join(root, LOCALES_DIR),
): Promise<CheckedSettings> {
  const resolved = resolveSettings(env, mode, root);
  const { problems } = resolved;
  // The sign-in server's metadata, where the operator named its issuer (oauth-discovery.ts).
  const discovered = await withServerMetadata(resolved.settings);
  const { settings } = discovered;
  problems.push(...discovered.problems);
  if (settings.icon && existsSync(settings.icon))
    problems.push(...(await iconProblems(settings.icon)).map((problem) => `icon: ${problem}`));
  // A name over the stores' own limit is already told; the description is judged on the name the build would use.
  problems.push(...descriptionProblems(settings.panelName, localesDir));
  const warnings = [...settingsWarnings(settings), ...discovered.warnings];
  if (problems.length > 0) throw new PanelConfigError(problems, warnings);
  return { settings, warnings };
}
