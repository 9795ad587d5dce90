// @vitest-environment node
/**
 * The panel doctor (issue 23) against the sandbox over real HTTP, in each way a panel may answer:
 * both stored-value shapes, each balance source, no validators, a moved API (same origin and
 * another), broken bodies, a 403 for a wrong key, a plain refusal. After each run the sandbox's
 * own records show that only reads were sent and nothing changed.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { diagnose } from '../tools/doctor/diagnose';
import { breaksPanelists, type Finding, type Report } from '../tools/doctor/report-types';
import { formatReport } from '../tools/doctor/report';
import { startSandbox, type FaultRule, type Sandbox, type SandboxState } from '../sandbox/server';

let sandbox: Sandbox;
let other: Sandbox;
beforeAll(async () => {
  [sandbox, other] = await Promise.all([startSandbox(), startSandbox()]);
});
afterAll(() => Promise.all([sandbox.close(), other.close()]));
beforeEach(() => {
  sandbox.reset();
  other.reset();
});

const READ_PATHS = ['/v1/panel/rewards', '/v1/panel/redemptions', '/v1/panel/variables/meta', '/v1/panel/variables/data'];

async function run(options: { state?: Partial<SandboxState>; faults?: FaultRule[]; token?: string } = {}): Promise<Report> {
  Object.assign(sandbox.state, options.state ?? {});
  const before = structuredClone({ ...sandbox.state });
  const faults = options.faults ?? [];
  for (const rule of faults) await fetch(`${sandbox.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify(rule) });
  const report = await diagnose({ baseUrl: sandbox.url, token: options.token ?? sandbox.token, balanceVariable: 'POINTS_BALANCE' });
  // Read-only: GETs of the four reads (under a moved prefix too), never the redeem; nothing changed.
  for (const request of [...sandbox.requests, ...other.requests]) {
    expect(request.method).toBe('GET');
    expect(READ_PATHS.some((path) => request.path.endsWith(path)), request.path).toBe(true);
  }
  expect(sandbox.state).toEqual(before);
  return report;
}

const finding = (report: Report, topic: string): Finding | undefined => report.findings.find((f) => f.topic.startsWith(topic));
const levels = (report: Report) => Object.fromEntries(report.findings.map((f) => [f.topic, f.level]));

describe('the panel doctor', () => {
  it('finds nothing wrong with the sandbox as it is, and says what it found', async () => {
    const report = await run();
    expect(breaksPanelists(report)).toBe(false);
    expect(report.reads.map((r) => [r.endpoint, r.status, r.validators, r.conditional])).toEqual(READ_PATHS.map((p) => [p, 200, 'ETag, Last-Modified', 304]));
    expect(report.reads.map((r) => r.summary)).toEqual(['10 rewards', '9 redemptions', '8 variables, 6 writable', '6 stored values']);
    expect(finding(report, 'Stored values')?.text).toBe('a list of 6 records, naming the variable in `name` and the value in `value`.');
    expect(finding(report, 'Balance')?.text).toBe("2,500 points, from the rewards response's top-level `points` (the first place the extension looks).");
    expect(finding(report, 'Error body: a wrong key')).toMatchObject({ level: 'ok', text: expect.stringMatching(/^401, JSON with `message`/) });
    expect(finding(report, 'Error body: a refused read')).toMatchObject({ level: 'ok', text: expect.stringContaining('Laravel-style `errors` (filter)') });
    expect(finding(report, 'Idle traffic')?.level).toBe('ok');
    const text = formatReport(report);
    expect(text).toMatch(/Verdict: nothing here would break panelists\.$/);
    expect(text).not.toContain(sandbox.token);
  });

  it('tells the map shape, a balance in a stored variable, and missing validators', async () => {
    const report = await run({ state: { valuesShape: 'map', balanceIn: 'stored-variable', validators: false } });
    expect(finding(report, 'Stored values')?.text).toBe('a map of variable name → value (7 values).');
    expect(finding(report, 'Balance')?.text).toBe('2,500 points, from the stored variable POINTS_BALANCE (the third place, balanceVariable).');
    expect(finding(report, 'balanceVariable')).toMatchObject({ level: 'ok', text: 'stored, holding 2,500 points.' });
    expect(finding(report, 'Idle traffic')).toMatchObject({ level: 'warn', text: expect.stringMatching(/^no ETag or Last-Modified on \/v1\/panel\/rewards, .*downloads the whole answer \([\d,]+ bytes for these\)/) });
    expect(report.reads.every((r) => r.validators === 'none' && r.conditional === null)).toBe(true);
    expect(breaksPanelists(report)).toBe(false);
  });

  it('tells a balance in the read-variables response, and one nowhere (with the variable that looks like it)', async () => {
    expect(finding(await run({ state: { balanceIn: 'variables', balance: 1234 } }), 'Balance')?.text).toBe(
      "1,234 points, from the read-variables response's top-level `points` (the second place).",
    );
    sandbox.reset();
    const nowhere = await run({ state: { balanceIn: 'none', values: { ...sandbox.state.values, REWARD_POINTS: '90' } } });
    expect(finding(nowhere, 'Balance')).toMatchObject({ level: 'warn', text: expect.stringMatching(/^not found: .*balance "unknown"/) });
    expect(finding(nowhere, 'balanceVariable')).toMatchObject({ level: 'warn', text: expect.stringContaining('Stored variables that look like it: REWARD_POINTS') });
    expect(breaksPanelists(nowhere)).toBe(false);
  });

  it('fails a panel whose API redirects, within its origin or to another', async () => {
    const moved = await run({ state: { movedTo: '/api' } });
    expect(finding(moved, 'Redirect')).toMatchObject({ level: 'fail', text: expect.stringContaining(`GET /v1/panel/rewards (301 to ${sandbox.url}/api/v1/panel/rewards) and 3 more reads the same way.`) });
    expect(finding(moved, 'Redirect')?.text).toContain(`every read, profile save and redemption would fail. Set the API address to where it points: ${sandbox.url}/api`);
    expect(breaksPanelists(moved)).toBe(true);

    sandbox.reset();
    const away = await run({ state: { movedTo: other.url } });
    expect(finding(away, 'Redirect')).toMatchObject({ level: 'fail', text: expect.stringContaining('It points to another origin, which the extension never talks to.') });
    expect(away.reads.every((r) => r.summary.startsWith('refused'))).toBe(true);
    // Nothing was sent on to the other origin.
    expect(other.requests).toEqual([]);
  });

  it('never follows a read redirected to the redeem endpoint (issue 31, point 1): no points are spent', async () => {
    const report = await run({
      faults: [{ method: 'GET', path: '/v1/panel/variables/data', status: 302, headers: { Location: `${sandbox.url}/v1/panel/redemption?id=101` }, times: 10 }],
    });
    // run() has checked that only the four reads reached the panel and its state did not change.
    expect(sandbox.requests.some((r) => r.path.endsWith('/v1/panel/redemption'))).toBe(false);
    expect(sandbox.state.redemptions).toHaveLength(9);
    expect(finding(report, 'Redirect')?.text).toContain(`(302 to ${sandbox.url}/v1/panel/redemption?id=101)`);
    expect(breaksPanelists(report)).toBe(true);
  });

  it('fails a body the extension refuses, naming the endpoint and the design decision', async () => {
    const report = await run({
      faults: [
        // Two for the refusals the doctor tries first, then the broken bodies.
        { path: '/v1/panel/rewards', times: 1 },
        { path: '/v1/panel/variables/data', times: 1 },
        { path: '/v1/panel/rewards', body: '{"rewards": [', times: 1 },
        { path: '/v1/panel/variables/data', body: '{"message": "success", "data": "none"}', times: 1 },
      ],
    });
    expect(levels(report)).toMatchObject({ 'GET /v1/panel/rewards': 'fail', 'GET /v1/panel/variables/data': 'fail' });
    expect(finding(report, 'GET /v1/panel/rewards')?.text).toMatch(/\/v1\/panel\/rewards.*not the documented shape \(design §5\)/);
    expect(finding(report, 'GET /v1/panel/variables/data')?.text).toContain('design §3');
    expect(finding(report, 'Balance')).toBeUndefined();
    expect(formatReport(report)).toMatch(/Verdict: 2 problems would break panelists/);
  });

  it('fails a panel that answers a wrong key with 403, and tells a refusal without Laravel-style errors', async () => {
    const report = await run({
      faults: [
        { path: '/v1/panel/rewards', status: 403, body: '{"message": "Forbidden"}', times: 1 },
        { path: '/v1/panel/variables/data', status: 400, body: '{"message": "Bad filter"}', times: 1 },
      ],
    });
    expect(finding(report, 'Error body: a wrong key')).toMatchObject({ level: 'fail', text: expect.stringContaining('403, JSON with `message`: a rejected key must be a 401') });
    expect(finding(report, 'Error body: a refused read')?.text).toContain('no Laravel-style `errors`');
    expect(breaksPanelists(report)).toBe(true);
  });

  it('fails at once when its own key is not accepted, and warns of a read over half the time-out', async () => {
    const refused = await run({ token: 'not-the-key' });
    expect(finding(refused, 'GET /v1/panel/rewards')).toMatchObject({ level: 'fail', text: expect.stringContaining('The key was not accepted (401)') });
    expect(refused.reads).toHaveLength(1);

    sandbox.reset();
    const slow = await run({ faults: [{ path: '/v1/panel/variables/meta', delayMs: 5_200, times: 1 }] });
    expect(finding(slow, 'Response times')).toMatchObject({ level: 'warn', text: expect.stringMatching(/^slowest \/v1\/panel\/variables\/meta at \d+ ms: over half/) });
  }, 30_000);

  it('refuses an address the options page refuses, sending nothing', async () => {
    const report = await diagnose({ baseUrl: 'http://panel.example', token: 't', balanceVariable: 'POINTS_BALANCE' });
    expect(report.findings).toEqual([{ level: 'fail', topic: 'Address', text: expect.stringContaining('the options page refuses it too') }]);
  });
});
