// @vitest-environment node
/**
 * `npm run doctor` as an operator runs it: the key from the environment or a prompt that shows
 * nothing of it, progress on stderr, the report on stdout in the extension's own English words, and
 * options that can spend points refused unless given in full.
 */
import { execFile } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readToken } from '../tools/doctor/token';
import { USER_AGENT } from '../tools/doctor/wire';
import { startSandbox, type Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

async function doctor(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'tests/tools/doctor.ts', ...args],
      {
        env: { ...process.env, PANEL_CONFIG: 'none', ...env },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('npm run doctor', () => {
  it('reads the panel with the key from PANEL_DOCTOR_TOKEN, shows progress on stderr, prints the report without the key, and exits 0', async () => {
    sandbox.reset();
    const { code, stdout, stderr } = await doctor({ PANEL_DOCTOR_TOKEN: sandbox.token }, sandbox.url);
    expect(code).toBe(0);
    expect(stdout).toContain(`Panel doctor: ${sandbox.url}`);
    expect(stdout).toMatch(
      /Verdict: nothing the doctor looked at would break panelists\.\nNot checked: the answer to a profile save/,
    );
    expect(stdout).not.toContain(sandbox.token);
    expect(stderr).toContain(`Reading ${sandbox.url} as the extension does (each request waits at most 10 s):`);
    expect(stderr).toContain(`  GET ${sandbox.url}/v1/panel/rewards … 200, `);
    expect(new Set(sandbox.requests.map((r) => r.method))).toEqual(new Set(['GET']));
    expect(new Set(sandbox.requests.map((r) => r.headers['user-agent']))).toEqual(new Set([USER_AGENT]));
  }, 60_000);

  it("exits 1 when the key is refused, with the address from the build settings, in the catalogue's English (no bare message name)", async () => {
    sandbox.reset();
    const { code, stdout } = await doctor({ PANEL_DOCTOR_TOKEN: 'not-the-key', PANEL_API_BASE_URL: sandbox.url });
    expect(code).toBe(1);
    expect(stdout).toMatch(/FAIL {2}GET \/v1\/panel\/rewards: /);
    expect(stdout).toContain('Panelists see: Your personal key was not accepted. Reconnect in Settings.');
    expect(stdout).not.toContain('httpTokenNotAccepted');
  }, 60_000);

  it('with --json: the report as JSON on stdout for CI, the same exit code, progress still on stderr', async () => {
    sandbox.reset();
    const { code, stdout, stderr } = await doctor({ PANEL_DOCTOR_TOKEN: sandbox.token }, sandbox.url, '--json');
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as Record<string, any>;
    expect(report).toMatchObject({
      tool: 'panel-doctor',
      format: 1,
      baseUrl: sandbox.url,
      verdict: { ran: true, breaksPanelists: false },
    });
    expect(report.reads.map((r: { status: number }) => r.status)).toEqual([200, 200, 200, 200]);
    expect(stdout).not.toContain(sandbox.token);
    expect(stderr).toContain(`  GET ${sandbox.url}/v1/panel/rewards … 200, `);
  }, 60_000);

  it('exits 2, sending nothing, without a key, or with write options that are not given in full', async () => {
    sandbox.reset();
    const key = { PANEL_DOCTOR_TOKEN: sandbox.token };
    const [noKey, noWriteChecks, noConfirmation, badId] = await Promise.all([
      doctor({}, sandbox.url),
      doctor(key, sandbox.url, '--redeem-check', '101'),
      // No terminal to confirm at (execFile's stdin is a pipe), and no --yes-spend-points.
      doctor(key, sandbox.url, '--write-checks', '--redeem-check', '101'),
      doctor(key, sandbox.url, '--write-checks', '--redeem-check', 'all'),
    ]);
    expect(noKey).toMatchObject({ code: 2, stderr: expect.stringContaining('No key: set PANEL_DOCTOR_TOKEN') });
    expect(noWriteChecks).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--redeem-check is a write check: give --write-checks with it.'),
    });
    expect(noConfirmation).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('without one, add --yes-spend-points'),
    });
    expect(badId).toMatchObject({ code: 2, stderr: expect.stringContaining('--redeem-check takes a reward id') });
    expect(sandbox.requests).toEqual([]);
  }, 60_000);

  it('with --json, says in JSON why it could not run, for each way it cannot: never an empty file for CI', async () => {
    sandbox.reset();
    const key = { PANEL_DOCTOR_TOKEN: sandbox.token };
    const runs = await Promise.all([
      doctor({}, sandbox.url, '--json'),
      doctor(key, sandbox.url, '--json', '--write-checks', '--idempotency-check', '101'),
      doctor(key, sandbox.url, '--json', '--redeem-check', 'all'),
      doctor(key, '--json', '--no-such-option'),
    ]);
    const reasons = [
      'No key: set PANEL_DOCTOR_TOKEN',
      'without one, add --yes-spend-points',
      '--redeem-check takes a reward id',
      "Unknown option '--no-such-option'",
    ];
    runs.forEach((run, i) => {
      expect(run.code, run.stderr).toBe(2);
      const verdict = JSON.parse(run.stdout) as Record<string, any>;
      expect(verdict).toEqual({
        tool: 'panel-doctor',
        format: 1,
        verdict: { ran: false, breaksPanelists: null, reason: expect.stringContaining(reasons[i]!) },
      });
      expect(run.stderr).toContain(reasons[i]);
    });
    expect(sandbox.requests).toEqual([]);
  }, 60_000);

  it('exits 2, sending nothing, for --idempotency-check without --write-checks', async () => {
    sandbox.reset();
    const twiceAlone = await doctor(
      { PANEL_DOCTOR_TOKEN: sandbox.token },
      sandbox.url,
      '--idempotency-check',
      '101',
      '--yes-spend-points',
    );
    expect(twiceAlone).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--idempotency-check is a write check: give --write-checks with it.'),
    });
    expect(sandbox.requests).toEqual([]);
  }, 60_000);

  it('with --write-checks --redeem-check --yes-spend-points: says so loudly, saves unchanged, redeems once', async () => {
    sandbox.reset();
    const { code, stdout, stderr } = await doctor(
      { PANEL_DOCTOR_TOKEN: sandbox.token },
      sandbox.url,
      '--write-checks',
      '--redeem-check',
      '101',
      '--yes-spend-points',
    );
    expect(code).toBe(0);
    expect(stderr).toContain("WRITE CHECKS ON: use a test panelist's key only.");
    expect(stderr).toContain(
      'Redeeming reward #101 “Bluefin Coffee $5 Gift Card” once, for 500 points each (balance: 2,500): confirmed by --yes-spend-points.',
    );
    expect(stdout).toContain("WRITE CHECKS ON: run with a test panelist's key only. Sent besides reads:");
    expect(
      sandbox.requests
        .filter((r) => r.method !== 'GET' || r.path === '/v1/panel/redemption')
        .map((r) => `${r.method} ${r.path}`),
    ).toEqual(['POST /v1/panel/variables/data', 'GET /v1/panel/redemption']);
    expect(sandbox.state.redemptions).toHaveLength(10);
  }, 60_000);
});

describe('the key prompt', () => {
  function terminal() {
    const input = Object.assign(new PassThrough(), {
      isTTY: true,
      raw: false,
      setRawMode(raw: boolean) {
        input.raw = raw;
      },
    });
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    return { input, output, shown: () => shown };
  }

  it('takes the typed key without showing it, with backspace, and gives the terminal back', async () => {
    const { input, output, shown } = terminal();
    const token = readToken({}, input, output);
    expect(input.raw).toBe(true);
    input.write('secret-kez\u007fy');
    input.write('\r');
    expect(await token).toBe('secret-key');
    expect(input.raw).toBe(false);
    expect(shown()).toContain('nothing shows as you type');
    expect(shown()).not.toContain('secret');
  });

  it('stops on Ctrl-C, and prefers PANEL_DOCTOR_TOKEN', async () => {
    const { input, output } = terminal();
    const token = readToken({}, input, output);
    input.write('abc\u0003');
    await expect(token).rejects.toThrow('Stopped: no key was given.');
    await expect(readToken({ PANEL_DOCTOR_TOKEN: ' k ' }, input, output)).resolves.toBe('k');
  });
});
