/**
 * RELEASE.md of `npm run release`: what this release is, where each language's "what's new" came
 * from (the operator's notes in that language, or the English, named as such), what each store is sent and whether
 * it is ready, the `wxt submit` command, and what to do next (tag, staged rollout, rollback).
 */
import { relative } from 'node:path';
import { STORE_NAMES, type StorePlan } from './stores';
import { shownRequests } from './amo';
import { commandLine, outcomeLines, type AmoStep, type Mode, type StoreOutcome } from './submit';
import { sourceText, type WhatsNew } from './whats-new';

export interface NotesInput {
  name: string;
  version: string;
  /** The previous release tag, or null for the first. */
  previous: string | null;
  outDir: string;
  zips: { chrome: string; firefox: string; sources: string };
  whatsNew: WhatsNew[];
  /** The whats-new.json entry the notes are under now (the version's, once a local release moved them). */
  notesEntry: string;
  plans: StorePlan[];
  /** The notes addons.mozilla.org gets on the version, when it is one of the stores. */
  amo: AmoStep | null;
  mode: Mode;
  /** Each store's outcome, once the stores were asked. */
  outcomes?: StoreOutcome[];
  fromTag: boolean;
}

const MODE_SAYS: Record<Mode, string> = {
  'dry-run': 'Dry run: nothing was sent to any store. The stores’ options were checked here, offline.',
  'check-credentials':
    'Credentials checked: `wxt submit --dry-run` asked each store whether the secrets are good; nothing was uploaded.',
  submit: 'Submitted with `wxt submit`, one store at a time: each store that took it now reviews the new version.',
};

/** What addons.mozilla.org is sent on the version `wxt submit` makes there, as the request leaves. */
function amoSection({ amo, version }: NotesInput): string {
  if (!amo) return '';
  const languages = Object.keys(amo.notes.release_notes);
  return `
## addons.mozilla.org: the version's notes

Once \`--submit\` has made ${version} there, the release sets its release notes in ${languages.join(', ')} (a
language without notes of its own shows the English) and its notes for reviewers (how to rebuild it
from the sources zip), with AMO's v5 API; the body is also in \`amo-version-notes.json\`:

\`\`\`http
${shownRequests(amo.guid, version, amo.notes)}
\`\`\`
`;
}

export function releaseNotes(input: NotesInput): string {
  const rel = (path: string) => relative(input.outDir, path);
  const { version } = input;
  const stores = input.plans.length
    ? input.plans.map(
        (p) =>
          `- ${STORE_NAMES[p.store]}: ${p.problems.length ? 'NOT READY' : 'ready'}${p.notes.length ? ` (${p.notes.join('; ')})` : ''}` +
          p.problems.map((problem) => `\n  - ${problem}`).join(''),
      )
    : ['- none: no store’s secrets are set (see OPERATORS.md, “Releases”), and none was named with --stores'];
  return `# ${input.name} ${version}

${MODE_SAYS[input.mode]} Previous release: ${input.previous ?? 'none (the first)'}.

## The zips

- \`${rel(input.zips.chrome)}\`: the Chrome Web Store and Edge Add-ons
- \`${rel(input.zips.firefox)}\`, with its sources \`${rel(input.zips.sources)}\`: addons.mozilla.org

## What's new, in each language

From your notes for panelists, \`whats-new.json\` › ${input.notesEntry} (CHANGELOG.md, the project's,
is not read); no translation is made up here. Each language's file is in \`whats-new/\`:

| language | the words are |
|---|---|
${input.whatsNew.map((item) => `| ${item.locale} | ${sourceText(item, input.notesEntry)} |`).join('\n')}

addons.mozilla.org gets them as the version's release notes (below). The Chrome Web Store and Edge
Add-ons have no such field: put the text at the top of the listing's description when panelists
should read it there.
${amoSection(input)}
## The stores

${stores.join('\n')}

What \`--submit\` runs, one store after the other (\`--check-credentials\` runs the same with
\`--dry-run\`, which uploads nothing):

\`\`\`sh
${input.plans.map((p) => commandLine(p, false)).join('\n') || '# no store'}
\`\`\`
${input.outcomes ? `\nWhat the stores said:\n\n${outcomeLines(input.outcomes, input.mode === 'submit' ? 'submit' : 'check-credentials').join('\n')}\n` : ''}
Secrets come from the environment (CI secrets, or \`.env.submit\` that \`npx wxt submit init\` writes;
never commit it).

## Next

${
  input.fromTag
    ? '- Watch each store’s review; addons.mozilla.org mails its result.'
    : `- Read \`whats-new/\`, then commit (whats-new.json now keeps these notes under ${version}) and tag:
  \`git commit -am "Release ${version}" && git tag v${version} && git push --follow-tags\`.
  The release workflow (\`.github/workflows/release.yml\`) submits the tag.`
}
- Staged rollout (Chrome): release with \`--rollout 10\`, then \`npm run release -- --raise-rollout 50 --submit\` and
  100 once nothing is wrong. A beta first: \`--channel beta\` (addons.mozilla.org unlisted, the Chrome trusted testers' item).
- Rollback: no store installs an older version over a newer one. Stop a staged rollout where it is (leave the
  percentage), disable the version on addons.mozilla.org (Manage Status & Versions), and release the last good
  code as a higher version: \`git revert\` the change, \`npm run release -- patch\`.
`;
}
