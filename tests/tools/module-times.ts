/**
 * A vitest reporter for `npm test`: where each test file's time went, written to
 * `.output/module-times.json`. Vitest's JSON report holds only the tests' own durations; a browser
 * file's builds (setupFiles), imports and hooks (a `beforeAll` that launches a browser or runs
 * `npm run store`) are outside them, and were about a quarter of a full run's worker time
 * (JOURNAL.md). A restructuring for speed is then measured per part, not guessed.
 */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export interface ModuleTime {
  file: string;
  project: string;
  /** Milliseconds: setupFiles, importing the file (and collecting), its tests and hooks. */
  setup: number;
  import: number;
  testsAndHooks: number;
  /** The tests alone, so hooks are `testsAndHooks - tests`. */
  tests: number;
}

export const MODULE_TIMES = '.output/module-times.json';

export default class ModuleTimes implements Reporter {
  private readonly times: ModuleTime[] = [];

  onTestModuleEnd(module: TestModule): void {
    const d = module.diagnostic();
    let tests = 0;
    for (const test of module.children.allTests()) tests += test.diagnostic()?.duration ?? 0;
    this.times.push({
      file: relative(process.cwd(), module.moduleId),
      project: module.project.name,
      setup: Math.round(d.setupDuration),
      import: Math.round(d.collectDuration),
      testsAndHooks: Math.round(d.duration),
      tests: Math.round(tests),
    });
  }

  onTestRunEnd(): void {
    this.times.sort((a, b) => b.setup + b.import + b.testsAndHooks - (a.setup + a.import + a.testsAndHooks));
    writeFileSync(MODULE_TIMES, `${JSON.stringify(this.times, null, 1)}\n`);
  }
}
