/**
 * The files a release edits, kept as they were so a release that fails leaves the tree as it found
 * it: a version bump and a notes edit are only kept once a store took the version (or, in a dry
 * run, once everything was built and checked). Restoring twice is harmless.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Snapshot {
  /** Puts every file back as it was (a file that was not there is removed); returns those that had changed. */
  restore(): string[];
}

export function snapshot(root: string, files: readonly string[]): Snapshot {
  const kept = new Map(
    files.map((file) => {
      const path = join(root, file);
      return [file, existsSync(path) ? readFileSync(path) : null] as const;
    }),
  );
  return {
    restore() {
      const changed: string[] = [];
      for (const [file, content] of kept) {
        const path = join(root, file);
        const now = existsSync(path) ? readFileSync(path) : null;
        if (now === null && content === null) continue;
        if (now !== null && content !== null && now.equals(content)) continue;
        changed.push(file);
        if (content === null) rmSync(path);
        else writeFileSync(path, content);
      }
      return changed;
    },
  };
}
