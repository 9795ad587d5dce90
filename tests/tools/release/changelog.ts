/**
 * CHANGELOG.md as Keep a Changelog writes it (`## [Unreleased]`, then `## [1.2.0] - 2026-11-27`,
 * each with `### Added`, `### Changed`, `### Fixed`, `### Security` lists): the entry a release
 * takes, the file with `[Unreleased]` turned into the release, and the entry as plain text for a
 * store's "what's new".
 */

export const UNRELEASED = 'Unreleased';

/** The `## [name]` sections, in order, each with the lines under it. */
function sections(text: string): { name: string; start: number; end: number }[] {
  const lines = text.split('\n');
  const heads = lines.flatMap((line, i) => {
    const match = /^## \[([^\]]+)\]/.exec(line);
    return match ? [{ name: match[1]!, start: i }] : [];
  });
  return heads.map((head, i) => ({ ...head, end: heads[i + 1]?.start ?? lines.length }));
}

/** The entry under `## [name]` (without its heading), trimmed; null when there is no such section. */
export function entryOf(text: string, name: string): string | null {
  const found = sections(text).find((s) => s.name === name);
  if (!found) return null;
  return text
    .split('\n')
    .slice(found.start + 1, found.end)
    .join('\n')
    .trim();
}

/** Whether an entry says anything: at least one list item under it. */
export const hasChanges = (entry: string | null): boolean => !!entry && /^\s*[-*] \S/m.test(entry);

/** The file with `[Unreleased]` become `[version] - date`, and a new empty `[Unreleased]` above it. */
export function releaseChangelog(text: string, version: string, date: string): string {
  return text.replace(/^## \[Unreleased\][^\n]*$/m, `## [${UNRELEASED}]\n\n## [${version}] - ${date}`);
}

/** Markdown to plain text a store's form takes: no backticks, links as their words, bullets as •. */
export function plainText(entry: string): string {
  const out: string[] = [];
  for (const raw of entry.split('\n')) {
    const line = raw
      .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
      .replace(/`([^`]*)`/g, '$1')
      .replace(/\*\*([^*]+)\*\*/g, '$1')
      .replace(/\*([^*]+)\*/g, '$1');
    const heading = /^#{3,}\s+(.*)$/.exec(line);
    const item = /^\s*[-*]\s+(.*)$/.exec(line);
    if (heading) out.push('', `${heading[1]!.trim()}:`);
    else if (item) out.push(`• ${item[1]!.trim()}`);
    else if (line.trim() && out.length && out.at(-1) !== '') out[out.length - 1] += ` ${line.trim()}`;
    else if (line.trim()) out.push(line.trim());
  }
  return out.join('\n').trim();
}
