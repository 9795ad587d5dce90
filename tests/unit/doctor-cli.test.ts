// @vitest-environment node
/** `npm run doctor` as an operator runs it: the key from the environment or a prompt that shows nothing of it. */
import { execFile } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readToken } from '../tools/doctor/token';
import { startSandbox, type Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

async function doctor(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)('npx', ['tsx', 'tests/tools/doctor.ts', ...args], { env: { ...process.env, PANEL_CONFIG: 'none', ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('npm run doctor', () => {
  it('reads the panel with the key from PANEL_DOCTOR_TOKEN, prints the report without the key, and exits 0', async () => {
    sandbox.reset();
    const { code, stdout } = await doctor({ PANEL_DOCTOR_TOKEN: sandbox.token }, sandbox.url);
    expect(code).toBe(0);
    expect(stdout).toContain(`Panel doctor: ${sandbox.url}`);
    expect(stdout).toMatch(/Verdict: nothing here would break panelists\.\n$/);
    expect(stdout).not.toContain(sandbox.token);
    expect(new Set(sandbox.requests.map((r) => r.method))).toEqual(new Set(['GET']));
  }, 60_000);

  it('exits 1 when something would break panelists, with the address from the build settings', async () => {
    sandbox.reset();
    sandbox.state.movedTo = '/api';
    const { code, stdout } = await doctor({ PANEL_DOCTOR_TOKEN: sandbox.token, PANEL_API_BASE_URL: sandbox.url });
    expect(code).toBe(1);
    expect(stdout).toMatch(/FAIL {2}Redirect:/);
  }, 60_000);

  it('exits 2 without a key and without a terminal to ask for one', async () => {
    const { code, stderr } = await doctor({}, sandbox.url);
    expect(code).toBe(2);
    expect(stderr).toContain('No key: set PANEL_DOCTOR_TOKEN');
  }, 60_000);
});

describe('the key prompt', () => {
  function terminal() {
    const input = Object.assign(new PassThrough(), { isTTY: true, raw: false, setRawMode(raw: boolean) { input.raw = raw; } });
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
