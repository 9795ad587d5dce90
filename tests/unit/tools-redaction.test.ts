// @vitest-environment node
/**
 * The key never leaves `npm run doctor` or `npm run preflight` in anything they print: a hostile
 * panel on 127.0.0.1 echoes it in a redirect's address (escaped, as an address writes it), in a
 * 500's body and in a 401's body (a slash escaped as PHP writes JSON), and every byte of stdout and
 * stderr, progress lines included, text and JSON alike, is searched for it in each spelling.
 *
 * Fails on these deliberate breakages: the output gate not installed in either command (the
 * refused hop's progress line prints the key, twice); `secretForms` without the address spelling
 * or the JSON spelling; the gate installed before the key is known but never told it.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED, redactOutput, redactSecrets, secretForms } from '../tools/doctor/redact';
import { startHostilePanel, type HostilePanel } from './hostile-panel';

/** A key in base64's alphabet: `+` and `/` are written differently in an address and in PHP's JSON. */
const LONG_KEY = 'Zm9v+YmFy/c2VjcmV0LWtleS0xMjM=';
/** A short key is matched as a whole token only. */
const SHORT_KEY = 'k3y+/9';

/** Every spelling of the key the panel used, which none of the output may hold. */
const spellings = (key: string) => [key, encodeURIComponent(key), key.replace(/\//g, '\\/')];

function echoingPanel(key: string): Promise<HostilePanel> {
  return startHostilePanel({
    key,
    intercept(request) {
      if (request.path === '/v1/panel/rewards' && !request.query.token)
        return {
          status: 302,
          headers: { Location: `/v1/panel/rewards?token=${encodeURIComponent(key)}` },
          body: { message: `Moved for ${key}` },
        };
      if (request.path === '/v1/panel/redemptions')
        return { status: 500, body: { message: `Database error while reading the history of ${key}` } };
      if (request.path === '/v1/panel/variables/meta')
        return { status: 401, text: `{"message":"Token ${key.replace(/\//g, '\\/')} is not accepted here"}` };
      return undefined;
    },
  });
}

async function tool(script: string, env: Record<string, string>, ...args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script, ...args], {
      env: { ...process.env, PANEL_CONFIG: 'none', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

let long: HostilePanel;
let short: HostilePanel;
beforeAll(async () => {
  [long, short] = await Promise.all([echoingPanel(LONG_KEY), echoingPanel(SHORT_KEY)]);
});
afterAll(() => Promise.all([long.close(), short.close()]));

describe('a panel that echoes the key in a redirect, a 500 body and a 401', () => {
  it('never gets it printed by the doctor or the pre-flight, on stdout or stderr, as text or JSON', async () => {
    const env = { PANEL_DOCTOR_TOKEN: LONG_KEY, PANEL_API_BASE_URL: long.url };
    const runs = {
      doctor: await tool('tests/tools/doctor.ts', env),
      'doctor --json': await tool('tests/tools/doctor.ts', env, '--json'),
      preflight: await tool('tests/tools/preflight.ts', env),
      'preflight --json': await tool('tests/tools/preflight.ts', env, '--json'),
    };
    // The hop that would carry the key in its query was never sent.
    expect(long.requests.filter((r) => r.query.token !== undefined)).toEqual([]);
    for (const [name, run] of Object.entries(runs)) {
      expect(run.code, `${name}: ${run.stderr}`).toBe(1);
      for (const spelling of spellings(LONG_KEY)) {
        expect(run.stdout.includes(spelling), `${name} printed ${spelling} on stdout`).toBe(false);
        expect(run.stderr.includes(spelling), `${name} printed ${spelling} on stderr`).toBe(false);
      }
      // The refused hop is told in the progress, with the key redacted where it stood.
      expect(run.stderr, name).toContain(`not sent: GET ${long.url}/v1/panel/rewards?token=${REDACTED} (query)`);
      expect(run.stdout, name).toContain(REDACTED);
    }
    expect(runs.doctor.stdout.replace(/\s+/g, ' ')).toContain(
      `/v1/panel/rewards answered 302 to ${long.url}/v1/panel/rewards?token=${REDACTED}`,
    );
    expect(JSON.parse(runs['doctor --json'].stdout)).toMatchObject({ tool: 'panel-doctor' });
    expect(JSON.parse(runs['preflight --json'].stdout)).toMatchObject({ tool: 'panel-preflight' });
  }, 120_000);

  it('hides a short key too, as a whole token, without mangling the addresses around it', async () => {
    const run = await tool('tests/tools/doctor.ts', { PANEL_DOCTOR_TOKEN: SHORT_KEY, PANEL_API_BASE_URL: short.url });
    expect(run.code).toBe(1);
    for (const spelling of spellings(SHORT_KEY)) {
      expect(run.stdout).not.toContain(spelling);
      expect(run.stderr).not.toContain(spelling);
    }
    expect(run.stderr).toContain(`not sent: GET ${short.url}/v1/panel/rewards?token=${REDACTED} (query)`);
  }, 60_000);
});

describe('the redaction', () => {
  it('knows the spellings a panel writes a key in: as it is, in an address, in JSON with escaped slashes', () => {
    expect(secretForms('a+b/c')).toEqual(expect.arrayContaining(['a+b/c', 'a%2Bb%2Fc', 'a+b\\/c']));
    expect(redactSecrets('?t=a%2Bb%2Fc&x {"m":"a+b\\/c"} a+b/c', secretForms('a+b/c'))).toBe(
      `?t=${REDACTED}&x {"m":"${REDACTED}"} ${REDACTED}`,
    );
  });

  it('puts every write to a stream behind it once the key is known, strings and bytes alike', () => {
    const written: string[] = [];
    const stream = {
      write: (chunk: unknown, ...rest: unknown[]) => {
        written.push(String(chunk));
        (rest.find((r) => typeof r === 'function') as (() => void) | undefined)?.();
        return true;
      },
    } as unknown as NodeJS.WriteStream;
    const output = redactOutput([stream]);
    stream.write('before: secret-key-0123456789\n');
    output.hide('secret-key-0123456789');
    let called = false;
    stream.write('after: secret-key-0123456789\n', 'utf8', () => (called = true));
    stream.write(Buffer.from('bytes: secret-key-0123456789\n'));
    expect(written).toEqual(['before: secret-key-0123456789\n', `after: ${REDACTED}\n`, `bytes: ${REDACTED}\n`]);
    expect(called).toBe(true);
  });
});
