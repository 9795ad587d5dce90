/**
 * A package's command, started the way `npx` would find it in the project's own node_modules but
 * without `npx`: Node running the file the package names in its `bin`. `npx` itself costs about
 * 0.6 s of CPU a call before the command starts (measured on these machines), paid by every build,
 * zip and submit the release, store and lint tools make. Node running the script works wherever
 * Node does, where `node_modules/.bin`'s links and shims differ between systems.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** `[node, script]` for `pkg`'s command `name` (its own name by default), installed under `root`. */
export function packageBin(pkg: string, root = '.', name = pkg): [string, string] {
  const dir = join(root, 'node_modules', pkg);
  const { bin } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    bin?: string | Record<string, string>;
  };
  const script = typeof bin === 'string' ? bin : bin?.[name];
  if (!script) throw new Error(`${pkg} has no command ${name}: is it installed (npm ci)?`);
  return [process.execPath, join(dir, script)];
}
