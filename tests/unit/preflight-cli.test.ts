// @vitest-environment node
/**
 * `npm run preflight` as CI runs it, against the sandbox and a published policy on 127.0.0.1: one
 * JSON report with the doctor's inside it, and an exit code that stops a release for a panel that
 * would break panelists or a declaration that says less than the profile asks.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
let policy: Server;
let policyUrl: string;
beforeAll(async () => {
  sandbox = await startSandbox();
  policy = createServer((_, res) =>
    res
      .writeHead(200, { 'Content-Type': 'text/html' })
      .end('<h1>Privacy policy of the Acme Opinions browser extension</h1>'),
  );
  await new Promise<void>((resolve) => policy.listen(0, '127.0.0.1', resolve));
  policyUrl = `http://127.0.0.1:${(policy.address() as AddressInfo).port}/privacy`;
});
afterAll(async () => {
  await sandbox.close();
  await new Promise<void>((resolve) => policy.close(() => resolve()));
});

async function preflight(env: Record<string, string>) {
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'tests/tools/preflight.ts', '--json'],
      {
        env: {
          ...process.env,
          PANEL_CONFIG: 'none',
          PANEL_NAME: 'Acme Opinions',
          PANEL_API_BASE_URL: sandbox.url,
          PANEL_DOCTOR_TOKEN: sandbox.token,
          PANEL_PRIVACY_POLICY_URL: policyUrl,
          ...env,
        },
      },
    );
    return { code: 0, report: JSON.parse(stdout) as Record<string, any> };
  } catch (error) {
    const e = error as { code: number; stdout: string };
    return { code: e.code, report: JSON.parse(e.stdout) as Record<string, any> };
  }
}

describe('npm run preflight --json', () => {
  it('passes a panel the doctor passes, with the version, the declarations, the policy and sign-in checked', async () => {
    sandbox.reset();
    const { code, report } = await preflight({});
    expect(code).toBe(0);
    expect(report).toMatchObject({
      tool: 'panel-preflight',
      format: 1,
      verdict: { ran: true, ok: true, failures: 0 },
    });
    expect(report.doctor).toMatchObject({ tool: 'panel-doctor', verdict: { breaksPanelists: false } });
    const topics = (report.checks as { topic: string }[]).map((c) => c.topic);
    for (const topic of ['Build settings', 'Version', 'Declared data', 'Privacy policy', 'Sign-in'])
      expect(topics).toContain(topic);
    // Reads only: the pre-flight never writes to the panel.
    expect(new Set(sandbox.requests.map((r) => r.method))).toEqual(new Set(['GET']));
  }, 60_000);

  it('exits 1 when the declarations say less than the profile asks: a postal code question is location data', async () => {
    sandbox.reset();
    const { code, report } = await preflight({ PANEL_PROFILE_DATA: 'personallyIdentifyingInfo' });
    expect(code).toBe(1);
    expect(report.checks).toContainEqual(
      expect.objectContaining({
        level: 'fail',
        topic: 'Declared data',
        text: expect.stringMatching(/^POSTAL_CODE, PANELIST_COUNTRY ask about where the panelist lives/),
      }),
    );
  }, 60_000);

  it('exits 2 with a JSON verdict saying why when it cannot run (no key), sending nothing', async () => {
    sandbox.reset();
    const { code, report } = await preflight({ PANEL_DOCTOR_TOKEN: '' });
    expect(code).toBe(2);
    expect(report).toEqual({
      tool: 'panel-preflight',
      format: 1,
      verdict: { ran: false, ok: null, reason: expect.stringContaining('No key: set PANEL_DOCTOR_TOKEN') },
    });
    expect(sandbox.requests).toEqual([]);
  }, 60_000);
});
