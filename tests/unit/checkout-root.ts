import { join } from 'node:path';

/**
 * The repository's own files, for tests that read source text: under a mutation run (Stryker works
 * in `.stryker-tmp/sandbox-*` on instrumented copies) the checkout beside it, whose text is the
 * code as written.
 */
export function checkoutRoot(): string {
  const here = join(import.meta.dirname, '../..');
  return here.replace(/[\\/]\.stryker-tmp[\\/]sandbox-[^\\/]+$/, '');
}
