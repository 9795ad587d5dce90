/**
 * A copy of the project as an operator's fork holds it, for the tests of the operator commands
 * (`npm run store`, `npm run release`): its files (tracked and new, nothing ignored) in a folder of
 * their own, with the installed node_modules, and an environment without any build setting.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** The copy's folder; `temporary` collects it for the test's clean-up. */
export function copyProject(temporary: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'panel-project-'));
  temporary.push(dir);
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  for (const file of files.filter((f) => existsSync(f))) {
    mkdirSync(join(dir, dirname(file)), { recursive: true });
    copyFileSync(file, join(dir, file));
  }
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** An operator's environment: no build setting, and not the test runner's NODE_ENV=test (which changes the bundle). */
export const cleanEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PANEL_') && name !== 'NODE_ENV'));
