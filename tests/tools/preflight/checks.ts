/**
 * The pre-flight's own checks besides the doctor: one finding each, as the doctor words its own
 * (a level, a topic, what was found, and what to change when it is a problem). Here: the version
 * the release would take (with its panelists' notes), the privacy policy's address, and the profile's data kinds.
 */
import { join } from 'node:path';
import { LOCALES_DIR, shippedLocales } from '../../../utils/build/operator/locale-messages';
import type { ResolvedSettings } from '../../../utils/build/operator/panel-config';
import type { VariableDefinition } from '../../../utils/types';
import { compareVersions, packageVersion, parseVersion, releaseTags, tagsAtHead } from '../release/version';
import { NOTES_FILE, readNotes } from '../release/whats-new';
import { compareKinds, KIND_WORDS } from './data-kinds';

export interface Check {
  level: 'ok' | 'info' | 'warn' | 'fail';
  topic: string;
  text: string;
  change?: string;
}

/** The version package.json gives both stores, against the release tags and CHANGELOG.md. */
export function versionChecks(root: string): Check[] {
  const topic = 'Version';
  const version = packageVersion(root);
  const parsed = parseVersion(version);
  if (!parsed)
    return [
      {
        level: 'fail',
        topic,
        text: `package.json's version ${version} is not X.Y.Z of whole numbers up to 65535, the only form both stores take.`,
        change: 'Release with npm run release -- <patch|minor|major>.',
      },
    ];
  const tags = releaseTags(root);
  const atHead = tagsAtHead(root).find((t) => t.replace(/^v/, '') === version);
  const others = tags.filter((t) => t.tag !== atHead);
  const last = others[0];
  const checks: Check[] = [];
  if (last && compareVersions(parsed, last.version) < 0)
    checks.push({
      level: 'fail',
      topic,
      text: `${version} is lower than the release ${last.tag}: the stores refuse it.`,
      change: `Raise package.json's version above ${last.tag} (npm run release -- patch).`,
    });
  else if (last && compareVersions(parsed, last.version) === 0)
    checks.push({
      level: 'info',
      topic,
      text: `${version} is the last release's (${last.tag}): the next one needs a higher version (npm run release -- <patch|minor|major>).`,
    });
  else
    checks.push({
      level: 'ok',
      topic,
      text: `${version}${atHead ? ` (${atHead}, at HEAD)` : ''} is above ${last ? `the last release ${last.tag}` : 'every release (there is none yet)'}.`,
    });
  // What panelists read: the operator's notes (whats-new.json), never the project's CHANGELOG.md.
  const notes = readNotes(root, version, shippedLocales(join(root, LOCALES_DIR)));
  if (notes.problems.length)
    checks.push({
      level: atHead ? 'fail' : 'warn',
      topic,
      text: `the panelists' notes for ${version}: ${notes.problems.join('; ')}.`,
      change: `Write what panelists notice in this release in ${NOTES_FILE} (OPERATORS.md, "Releases").`,
    });
  return checks;
}

/** The privacy policy both stores link: published, answering, and no template [bracket] left. */
export async function policyCheck(settings: ResolvedSettings): Promise<Check> {
  const topic = 'Privacy policy';
  const url = settings.privacyPolicyUrl;
  if (!url)
    return {
      level: 'fail',
      topic,
      text: 'privacyPolicyUrl is not set: both stores need the address of the privacy policy.',
      change:
        'Fill in the template at the end of SUBMIT.md (npm run store), publish it, and set privacyPolicyUrl to its address.',
    };
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    return {
      level: 'fail',
      topic,
      text: `${url} could not be reached (${(error as Error).message}).`,
      change: 'Publish the policy at an address anyone can open.',
    };
  }
  const text = await response.text().catch(() => '');
  if (!response.ok)
    return {
      level: 'fail',
      topic,
      text: `${url} answered ${response.status}: the stores' reviewers and panelists find no policy there.`,
      change: 'Publish the policy at an address that answers 200.',
    };
  const left = [...new Set(text.match(/\[(?:YOUR|DATE|ANY OTHER)[^\]]*\]/g) ?? [])];
  if (left.length)
    return {
      level: 'fail',
      topic,
      text: `${url} still holds the template's brackets: ${left.slice(0, 3).join(', ')}${left.length > 3 ? ` and ${left.length - 3} more` : ''}.`,
      change: 'Fill in every [bracket] of the template, then publish it again.',
    };
  if (!text.includes(settings.panelName))
    return {
      level: 'warn',
      topic,
      text: `${url} answers ${response.status}, but does not name ${settings.panelName}: is it the extension's policy?`,
      change: `Publish the policy made for ${settings.panelName} (SUBMIT.md).`,
    };
  return { level: 'ok', topic, text: `${url} answers ${response.status} and names ${settings.panelName}.` };
}

/** What the profile's questions ask, against what the build declares to both stores (profileData). */
export function dataKindChecks(settings: ResolvedSettings, questions: VariableDefinition[] | null): Check[] {
  const topic = 'Declared data';
  if (!questions)
    return [
      {
        level: 'warn',
        topic,
        text: 'the profile questions could not be read (see the doctor), so what they ask was not compared with profileData.',
        change: 'Fix the reads the doctor names, and run the pre-flight again.',
      },
    ];
  const { undeclared, unasked } = compareKinds(questions, settings.profileData);
  const checks: Check[] = undeclared.map(({ kind, questions: names }) => ({
    level: 'fail',
    topic,
    text: `${names.join(', ')} ${names.length === 1 ? 'asks' : 'ask'} about ${KIND_WORDS[kind]}, and profileData does not declare ${kind}: the Firefox install prompt and the Chrome Web Store's privacy answers say less than the extension sends.`,
    change: `Add ${kind} to profileData, then build and submit again (Firefox asks panelists again for a new kind).`,
  }));
  for (const kind of unasked)
    checks.push({
      level: 'warn',
      topic,
      text: `profileData declares ${kind}, and no profile question asks about ${KIND_WORDS[kind]}: panelists are asked to agree to more than the extension sends.`,
      change: `Take ${kind} out of profileData, unless a question that asks it is coming.`,
    });
  if (checks.length === 0)
    checks.push({
      level: 'ok',
      topic,
      text: `the ${questions.length} profile questions ask nothing profileData (${settings.profileData}) does not declare.`,
    });
  return checks;
}
