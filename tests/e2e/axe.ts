import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

let source: string | undefined;

/**
 * axe-core run inside the page. It is evaluated over the debugging protocol, which the extension
 * page's script policy does not cover, so the page's CSP stays as shipped.
 */
export async function runAxe(page: Page): Promise<{ violations: string[]; unsure: number }> {
  source ??= await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(source);
  return page.evaluate(async () => {
    type Rule = { id: string; nodes: Array<{ target: unknown; failureSummary?: string }> };
    const axe = (
      window as unknown as { axe: { run(context: Document): Promise<{ violations: Rule[]; incomplete: Rule[] }> } }
    ).axe;
    const { violations, incomplete } = await axe.run(document);
    return {
      violations: violations.map(
        (v) => `${v.id}: ${v.nodes.map((n) => `${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`).join(' | ')}`,
      ),
      // Elements whose colour contrast axe could not decide (e.g. an empty input).
      unsure: incomplete.find((r) => r.id === 'color-contrast')?.nodes.length ?? 0,
    };
  });
}

export async function axeViolations(page: Page): Promise<string[]> {
  return (await runAxe(page)).violations;
}
