// @vitest-environment node
/**
 * The panel doctor against small local panels over real HTTP: the sandbox in
 * each way a panel may answer (both stored-value shapes, each balance source, no validators, a
 * moved API, broken bodies, a 403 for a wrong key, an outage, redirects to the redeem, to plain
 * http, to another origin, and to a target that fails, `{}` write answers), and raw 127.0.0.1
 * servers for what the sandbox cannot do (a hang, a 50 MB body, an endless one). After each run
 * the panels' own records show what was sent: reads only, unless write checks were asked for.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_API_BODY_BYTES } from '../../utils/api/body-limit';
import { diagnose, type DiagnoseOptions } from '../tools/doctor/diagnose';
import { redactSecrets } from '../tools/doctor/redact';
import { breaksPanelists, type Finding, type Report } from '../tools/doctor/report-types';
import { formatReport } from '../tools/doctor/report';
import { openWire, USER_AGENT, NotSentError } from '../tools/doctor/wire';
import { localeMessages } from '../tools/node-i18n';
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

const READ_PATHS = [
  '/v1/panel/rewards',
  '/v1/panel/redemptions',
  '/v1/panel/variables/meta',
  '/v1/panel/variables/data',
];
/** Build settings the doctor names to the operator, which are message names too. */
const BUILD_SETTINGS = new Set(['apiBaseUrl', 'balanceVariable']);
/** The report's text with its lines joined, for sentences the wrapping may break. */
const flat = (report: Report) => formatReport(report).replace(/\s+/g, ' ');
/** The extension's message names (camelCase ones: `httpTokenNotAccepted`), none of which may be printed bare. */
const MESSAGE_KEYS = Object.keys(localeMessages('en')).filter(
  (key) => /[a-z][A-Z]/.test(key) && !BUILD_SETTINGS.has(key),
);

/** Every report: problems say what panelists see and what to change; no bare message name; nothing about 30 s. */
function checkReport(report: Report): string {
  for (const f of report.findings) {
    if (f.level === 'warn' || f.level === 'fail') {
      expect(f.panelists.trim(), f.topic).not.toBe('');
      expect(f.change.trim(), f.topic).not.toBe('');
    }
  }
  const text = formatReport(report);
  for (const key of MESSAGE_KEYS) expect(text).not.toMatch(new RegExp(`\\b${key}\\b`));
  expect(text).not.toMatch(/\b30 s\b/);
  return text;
}

type RunOptions = Partial<Omit<DiagnoseOptions, 'baseUrl' | 'token' | 'balanceVariable'>> & {
  state?: Partial<SandboxState>;
  faults?: FaultRule[];
  token?: string;
  baseUrl?: string;
};

let progress = '';

async function run(options: RunOptions = {}): Promise<Report> {
  const { state, faults = [], token, baseUrl, ...rest } = options;
  Object.assign(sandbox.state, state ?? {});
  const before = structuredClone({ ...sandbox.state });
  for (const rule of faults)
    await fetch(`${sandbox.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify(rule) });
  progress = '';
  const report = await diagnose({
    baseUrl: baseUrl ?? sandbox.url,
    token: token ?? sandbox.token,
    balanceVariable: 'POINTS_BALANCE',
    progress: (text) => void (progress += text),
    ...rest,
  });
  for (const request of [...sandbox.requests, ...other.requests]) {
    expect(request.headers['user-agent']).toBe(USER_AGENT);
    if (request.method === 'POST' && rest.writeChecks) {
      // The one profile save of a write check: a variable with the value it holds.
      expect(request.path).toBe('/v1/panel/variables/data');
      continue;
    }
    if (request.path === '/v1/panel/redemption' && rest.redeem) continue;
    // Reads only: GETs of the four reads (under a moved prefix too), never the redeem.
    expect(request.method).toBe('GET');
    expect(
      READ_PATHS.some((path) => request.path.endsWith(path)),
      request.path,
    ).toBe(true);
  }
  if (!rest.redeem) expect(sandbox.state).toEqual(before);
  checkReport(report);
  return report;
}

const finding = (report: Report, topic: string): Finding | undefined =>
  report.findings.find((f) => f.topic.startsWith(topic));
const failures = (report: Report) => report.findings.filter((f) => f.level === 'fail');
/** The third request to `path` gets `rule` (the read and its conditional repeat come first). */
const third = (path: string, rule: FaultRule): FaultRule[] => [
  { path, headers: {}, times: 2 },
  { ...rule, path, times: 1 },
];

describe('the panel doctor reads', () => {
  it('finds nothing wrong with the sandbox as it is, says what it did not check, and shows progress', async () => {
    const report = await run();
    expect(breaksPanelists(report)).toBe(false);
    expect(report.reads.map((r) => [r.requested, r.status, r.validators, r.conditional])).toEqual(
      READ_PATHS.map((p) => [p, 200, 'ETag, Last-Modified', 304]),
    );
    expect(report.reads.map((r) => r.summary)).toEqual([
      '10 rewards',
      '9 redemptions',
      '8 variables, 6 writable',
      '6 stored values',
    ]);
    expect(finding(report, 'Stored values')?.text).toBe(
      'a list of 6 records, naming the variable in `name` and the value in `value`.',
    );
    expect(finding(report, 'Balance')?.text).toBe(
      "2,500 points, from the rewards response's top-level `points` (the first place the extension looks).",
    );
    expect(finding(report, 'Error body: a wrong key')).toMatchObject({
      level: 'ok',
      text: expect.stringMatching(/^401, JSON with `message`/),
    });
    expect(finding(report, 'Error body: a refused read')).toMatchObject({
      level: 'ok',
      text: expect.stringContaining('Laravel-style `errors` (filter)'),
    });
    expect(finding(report, 'Idle traffic')?.level).toBe('ok');
    const text = formatReport(report);
    expect(flat(report)).toContain('Only reads were sent: nothing was redeemed, written or deleted.');
    expect(flat(report)).toContain('its 10 s time-out');
    // Never "nothing would break panelists" about answers it did not look at.
    expect(text).not.toContain('nothing here would break panelists');
    expect(text).toMatch(
      /Verdict: nothing the doctor looked at would break panelists\.\nNot checked: the answer to a profile save \(run with --write-checks\); the answer to deleting a stored/,
    );
    expect(flat(report)).toContain('the answer to a redemption (run with --write-checks --redeem-check <reward id>)');
    expect(text).not.toContain(sandbox.token);
    for (const path of READ_PATHS) expect(progress).toContain(`  GET ${sandbox.url}${path} … 200, `);
  });

  it('tells the map shape, a balance in a stored variable, and missing validators', async () => {
    const report = await run({ state: { valuesShape: 'map', balanceIn: 'stored-variable', validators: false } });
    expect(finding(report, 'Stored values')?.text).toBe('a map of variable name → value (7 values).');
    expect(finding(report, 'Balance')?.text).toBe(
      '2,500 points, from the stored variable POINTS_BALANCE (the third place, balanceVariable).',
    );
    expect(finding(report, 'balanceVariable')).toMatchObject({ level: 'ok', text: 'stored, holding 2,500 points.' });
    expect(finding(report, 'Idle traffic')).toMatchObject({
      level: 'warn',
      text: expect.stringMatching(
        /^no ETag or Last-Modified on \/v1\/panel\/rewards, .*downloads the whole answer \([\d,]+ bytes for these\)/,
      ),
    });
    expect(report.reads.every((r) => r.validators === 'none' && r.conditional === null)).toBe(true);
    expect(breaksPanelists(report)).toBe(false);
  });

  it('tells a balance no points can be as the extension shows it: the rewards read, the balance not', async () => {
    const report = await run({ state: { balance: -40 } });
    expect(report.reads.find((r) => r.endpoint === '/v1/panel/rewards')?.summary).toMatch(/^\d+ rewards$/);
    expect(finding(report, 'Balance')).toMatchObject({
      level: 'warn',
      text: expect.stringMatching(/^the rewards response's top-level `points` holds -40, which is no points balance/),
    });
  });

  it('tells a balance in the read-variables response, and one nowhere as one warning (with the variable that looks like it)', async () => {
    expect(finding(await run({ state: { balanceIn: 'variables', balance: 1234 } }), 'Balance')?.text).toBe(
      "1,234 points, from the read-variables response's top-level `points` (the second place).",
    );
    sandbox.reset();
    const nowhere = await run({
      state: { balanceIn: 'none', values: { ...sandbox.state.values, REWARD_POINTS: '90' } },
    });
    expect(finding(nowhere, 'Balance')).toMatchObject({
      level: 'warn',
      text: expect.stringMatching(/^not found: .*balance "unknown"/),
    });
    expect(finding(nowhere, 'balanceVariable')).toMatchObject({
      level: 'info',
      text: expect.stringContaining('Stored variables that look like it: REWARD_POINTS'),
    });
    expect(nowhere.findings.filter((f) => f.level === 'warn')).toHaveLength(1);
    expect(breaksPanelists(nowhere)).toBe(false);
  });

  it('tells each record the extension quarantines, without failing the read it came in', async () => {
    const rewards = structuredClone(sandbox.state.rewards);
    Object.assign(rewards[0]!, { cost: null });
    Object.assign(rewards[1]!, { cost_currency: 840 });
    const redemptions = structuredClone(sandbox.state.redemptions);
    Object.assign(redemptions[0]!, { reward_point_cost: -500 });
    Object.assign(redemptions[1]!, { processed: 'yes' });
    const variables = structuredClone(sandbox.state.variables);
    Object.assign(
      variables.find((v) => v.writable)!,
      { writable: 'yes' },
    );
    const report = await run({ state: { rewards, redemptions, variables } });
    expect(failures(report)).toEqual([]);
    const texts = report.findings.map((f) => `${f.level} ${f.topic}: ${f.text}`);
    expect(texts).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^warn Rewards: 1 reward has a price the extension cannot take: #\d+ .* cost_currency 840 /,
        ),
        expect.stringMatching(/^warn Rewards: 1 reward has no value in money \(#\d+ .* cost null\)/),
        expect.stringMatching(/^warn Redemptions: 1 whose reward_point_cost is not whole points of 0 or more \(#\d+\)/),
        expect.stringMatching(
          /^warn Redemptions: 1 whose approved, processed, failed or refunded is not true or false/,
        ),
        expect.stringMatching(/^warn Profile variables: 1 of a shape the extension cannot mean/),
      ]),
    );
    expect(texts.join('\n')).not.toMatch(/Currency codes Intl does not know \(\)/);
  });

  it('fails a body the extension refuses, naming the URL, the design decision and what to send', async () => {
    const report = await run({
      faults: [
        { path: '/v1/panel/rewards', body: '{"rewards": [', times: 1 },
        { path: '/v1/panel/variables/data', body: '{"message": "success", "data": "none"}', times: 1 },
      ],
    });
    expect(finding(report, 'GET /v1/panel/rewards')).toMatchObject({
      level: 'fail',
      text: `${sandbox.url}/v1/panel/rewards answered 200 with a body the extension refuses as not the documented shape (design §5), so panelists see an error instead of it.`,
      panelists: expect.stringContaining('Unexpected response from /v1/panel/rewards: the body is not JSON.'),
    });
    expect(finding(report, 'GET /v1/panel/variables/data')).toMatchObject({
      level: 'fail',
      change: expect.stringContaining('design §3'),
    });
    expect(finding(report, 'Balance')).toBeUndefined();
    expect(formatReport(report)).toMatch(/Verdict: 2 problems would break panelists/);
  });

  it('fails a panel that answers a wrong key with 403, and tells a refusal without Laravel-style errors', async () => {
    const report = await run({
      faults: [
        ...third('/v1/panel/rewards', { status: 403, body: '{"message": "Forbidden"}' }),
        ...third('/v1/panel/variables/data', { status: 400, body: '{"message": "Bad filter"}' }),
      ],
    });
    expect(finding(report, 'Error body: a wrong key')).toMatchObject({
      level: 'fail',
      text: expect.stringContaining(
        `GET ${sandbox.url}/v1/panel/rewards with a made-up key got 403, JSON with \`message\`, where the real key was answered: a rejected key must be a 401.`,
      ),
      panelists: 'Forbidden',
    });
    expect(finding(report, 'Error body: a refused read')?.text).toContain('no Laravel-style `errors`');
    expect(failures(report)).toHaveLength(1);
  });

  it("stops at once when its own key is not accepted, in the catalogue's words, and says what it did not read", async () => {
    const report = await run({ token: 'not-the-key' });
    expect(failures(report)).toEqual([
      expect.objectContaining({
        topic: 'GET /v1/panel/rewards',
        text: expect.stringContaining('answered 401: the key was not accepted'),
        panelists: 'Your personal key was not accepted. Reconnect in Settings.',
      }),
    ]);
    expect(report.reads).toHaveLength(1);
    expect(report.notChecked).toContain(
      'the other reads (/v1/panel/redemptions, /v1/panel/variables/meta, /v1/panel/variables/data): the key was refused',
    );
  });

  it('tells a 500 outage once: not also a key problem, nor a refusal', async () => {
    const report = await run({ faults: [{ status: 500, times: 100 }] });
    expect(failures(report)).toEqual([
      expect.objectContaining({
        topic: 'Every read',
        text: expect.stringMatching(
          new RegExp(
            `^${sandbox.url}/v1/panel/rewards, /v1/panel/redemptions, /v1/panel/variables/meta, /v1/panel/variables/data answered 500: the panel failed`,
          ),
        ),
        panelists: 'The panel had a problem (HTTP 500). Try again later.',
      }),
    ]);
    expect(report.findings.map((f) => f.topic)).toEqual(['Every read']);
    expect(formatReport(report)).not.toMatch(/\b401\b|wrong key must/);
    expect(report.notChecked).toContain('what a wrong key gets (no read worked to compare it with)');
    // The four reads, and nothing more: no probe of a panel that is down.
    expect(sandbox.requests).toHaveLength(4);
  });

  it('shows the URL actually requested: an address ending in /v1 asks for /v1/v1/…, one finding, and no refusal judged on a 404', async () => {
    const report = await run({ baseUrl: `${sandbox.url}/v1` });
    expect(report.reads.map((r) => r.requested)).toEqual(READ_PATHS.map((p) => `/v1${p}`));
    expect(failures(report)).toEqual([
      expect.objectContaining({
        topic: 'Address',
        text: expect.stringContaining(`requests ${sandbox.url}/v1/v1/panel/rewards, /v1/v1/panel/redemptions`),
        change: `Set the API address without the /v1: ${sandbox.url}`,
      }),
    ]);
    expect(finding(report, 'Error body')).toBeUndefined();
  });

  it('does not call a 404 to an unknown filter a good refusal', async () => {
    const report = await run({
      faults: third('/v1/panel/variables/data', { status: 404, body: '{"message": "Not Found"}' }),
    });
    expect(finding(report, 'Error body: a refused read')).toMatchObject({
      level: 'info',
      text: expect.stringContaining('says nothing of how a refused profile save looks'),
    });
  });

  it("warns of a read over half the extension's time-out", async () => {
    const slow = await run({ faults: [{ path: '/v1/panel/variables/meta', delayMs: 5_200, times: 1 }] });
    expect(finding(slow, 'Response times')).toMatchObject({
      level: 'warn',
      text: expect.stringMatching(
        /^slowest \/v1\/panel\/variables\/meta at \d+ ms: over half the extension's 10 s time-out/,
      ),
    });
  }, 30_000);

  it('refuses an address the options page refuses, sending nothing', async () => {
    const report = await diagnose({ baseUrl: 'http://panel.example', token: 't', balanceVariable: 'POINTS_BALANCE' });
    expect(report.findings).toEqual([
      expect.objectContaining({
        level: 'fail',
        topic: 'Address',
        text: expect.stringContaining('the options page refuses it too'),
      }),
    ]);
    expect(report.notChecked).toEqual(['every answer: nothing was sent']);
  });
});

describe('the panel doctor follows redirects itself, checking every hop before it is sent', () => {
  it('says where a moved API answers, in one finding for the four reads', async () => {
    const moved = await run({ state: { movedTo: '/api' } });
    expect(failures(moved)).toEqual([
      expect.objectContaining({
        topic: 'Redirect',
        text: expect.stringContaining(
          `GET ${sandbox.url}/v1/panel/rewards answered 301 to ${sandbox.url}/api/v1/panel/rewards, which answered 200 (the API answers there); the 3 other reads the same way.`,
        ),
        change: `Set the API address (apiBaseUrl) to ${sandbox.url}/api, or have the panel answer at ${sandbox.url} without a redirect; then run the doctor again.`,
        panelists: expect.stringContaining('answered with a redirect, which the extension does not follow'),
      }),
    ]);
    expect(moved.reads.every((r) => r.status === 301 && r.summary === 'redirected: not followed')).toBe(true);
    expect(sandbox.requests.filter((r) => r.path.startsWith('/api/')).map((r) => r.path)).toEqual(
      READ_PATHS.map((p) => `/api${p}`),
    );
  });

  it('never follows a read redirected to the redeem endpoint: no points are spent, and the finding names it', async () => {
    const report = await run({
      faults: [
        {
          method: 'GET',
          path: '/v1/panel/variables/data',
          status: 302,
          headers: { Location: `${sandbox.url}/v1/panel/redemption?id=101` },
          times: 10,
        },
      ],
    });
    // run() has checked that only reads reached the panel and its state did not change.
    expect(sandbox.requests.some((r) => r.path.endsWith('/v1/panel/redemption'))).toBe(false);
    expect(sandbox.state.redemptions).toHaveLength(9);
    expect(finding(report, 'Redirect')).toMatchObject({
      text: expect.stringContaining(
        `GET ${sandbox.url}/v1/panel/variables/data answered 302 to ${sandbox.url}/v1/panel/redemption?id=101: that is the redeem endpoint, not followed`,
      ),
      change: expect.stringContaining('never redirect, least of all to GET /v1/panel/redemption'),
    });
    expect(progress).toContain(`not sent: GET ${sandbox.url}/v1/panel/redemption?id=101 (redeem)`);
  });

  it('never sends a hop whose path holds the redeem endpoint as a segment, nor advises an address that does', async () => {
    const report = await run({
      faults: [
        {
          method: 'GET',
          path: '/v1/panel/rewards',
          status: 302,
          headers: { Location: '/v1/panel/redemption/v1/panel/rewards' },
          times: 1,
        },
        {
          method: 'GET',
          path: '/v1/panel/redemptions',
          status: 302,
          headers: { Location: '/v1/panel/redemption/v1/panel/redemptions' },
          times: 1,
        },
      ],
    });
    expect(sandbox.requests.filter((r) => r.path.includes('/redemption/'))).toEqual([]);
    const redirect = finding(report, 'Redirect') as Finding & { change: string };
    expect(redirect.text).toContain(
      `answered 302 to ${sandbox.url}/v1/panel/redemption/v1/panel/rewards: that is the redeem endpoint, not followed`,
    );
    expect(redirect.change).not.toMatch(/Set the API address/);
    expect(formatReport(report)).not.toMatch(/apiBaseUrl\) to [^ ]*redemption/);
  });

  it('stops a chain at the hop that is not a read, after following the ones that are', async () => {
    const report = await run({
      faults: [
        { path: '/v1/panel/rewards', status: 301, headers: { Location: '/x/v1/panel/rewards' }, times: 1 },
        { path: '/x/v1/panel/rewards', status: 307, headers: { Location: '/v1/panel/redemption?id=101' }, times: 1 },
      ],
    });
    expect(finding(report, 'Redirect')?.text).toContain(
      `GET ${sandbox.url}/v1/panel/rewards answered 301 to ${sandbox.url}/x/v1/panel/rewards, which answered 307 to ${sandbox.url}/v1/panel/redemption?id=101: that is the redeem endpoint, not followed`,
    );
    expect(sandbox.requests.map((r) => r.path)).toContain('/x/v1/panel/rewards');
  });

  it('names a redirect whose target fails: no answer, or no connection', async () => {
    const report = await run({
      timeoutMs: 300,
      faults: [
        { path: '/v1/panel/rewards', status: 301, headers: { Location: '/slow/v1/panel/rewards' }, times: 1 },
        { path: '/slow/v1/panel/rewards', delayMs: 2_000, times: 1 },
        { path: '/v1/panel/redemptions', status: 301, headers: { Location: '/gone/v1/panel/redemptions' }, times: 1 },
        { path: '/gone/v1/panel/redemptions', drop: true, times: 1 },
      ],
    });
    const redirects = report.findings.filter((f) => f.topic === 'Redirect');
    expect(redirects.map((f) => f.text)).toEqual([
      expect.stringContaining(
        `answered 301 to ${sandbox.url}/slow/v1/panel/rewards, which gave no answer within 10 s (the extension's time-out).`,
      ),
      expect.stringContaining(`answered 301 to ${sandbox.url}/gone/v1/panel/redemptions, which could not be reached`),
    ]);
    expect(formatReport(report)).not.toContain('internet connection');
  });

  it('tells a redirect to a plain-http name as a redirect, not as a connection problem, and sends nothing there', async () => {
    const report = await run({
      faults: [
        {
          path: '/v1/panel/rewards',
          status: 301,
          headers: { Location: 'http://panel.invalid/v1/panel/rewards' },
          times: 1,
        },
      ],
    });
    expect(finding(report, 'Redirect')).toMatchObject({
      text: expect.stringContaining(
        'http://panel.invalid/v1/panel/rewards: that is plain http, not followed (the key would cross the network unencrypted)',
      ),
      panelists: expect.stringContaining('pointed the request to another site (panel.invalid)'),
    });
    expect(formatReport(report)).not.toContain('internet connection');
    expect(failures(report)).toHaveLength(1);
  });

  it('follows to another origin only when the operator allows it', async () => {
    const away = await run({ state: { movedTo: other.url } });
    expect(finding(away, 'Redirect')?.text).toContain(
      `that is another origin, not followed (the doctor sends the key to ${sandbox.url} only; \`--allow-origin ${other.url}\` lets it follow there)`,
    );
    expect(away.reads.every((r) => r.summary === 'redirected: not followed')).toBe(true);
    expect(other.requests).toEqual([]);

    sandbox.reset();
    const allowed = await run({ state: { movedTo: other.url }, allowOrigins: [other.url] });
    expect(finding(allowed, 'Redirect')).toMatchObject({
      text: expect.stringContaining('which answered 200 (the API answers there)'),
      change: expect.stringContaining(`Set the API address (apiBaseUrl) to ${other.url},`),
    });
    expect(other.requests.map((r) => `${r.method} ${r.path}`)).toEqual(READ_PATHS.map((p) => `GET ${p}`));
  });

  it('checks each request before it leaves: the redeem, writes, other origins, plain http and odd paths are never sent', async () => {
    const wire = openWire({ baseUrl: `${sandbox.url}/api`, key: sandbox.token, timeoutMs: 1_000 });
    try {
      const hop = async (url: string) => {
        const sent = await wire.hop(url);
        return 'refusal' in sent ? sent.refusal.kind : sent.exchange.status;
      };
      expect(await hop(`${sandbox.url}/api/v1/panel/redemption?id=101`)).toBe('redeem');
      expect(await hop(`${sandbox.url}/api/V1/PANEL/REDEMPTION/`)).toBe('redeem');
      // However a server may read the path: decoded (once or twice), %2F and \\ as slashes, dot
      // segments, ;parameters, trailing dots, any case; the endpoint as a segment anywhere in it.
      for (const path of [
        '/api/v1/panel/redemption/v1/panel/redemptions',
        '/api/v1/panel/%72edemption',
        '/api/v1/panel/%2572edemption',
        '/api/v1/panel%2Fredemption',
        '/api/v1/panel%5Credemption',
        '/api/v1/panel/rewards%2F..%2F..%2Fpanel/redemption',
        '/api/v1/panel/redemption;jsessionid=1',
        '/api/v1/panel/Redemption.',
        '/api/v1/panel/%2e%2e/panel/redemption',
      ])
        expect(await hop(`${sandbox.url}${path}`), path).toBe('redeem');
      expect(await hop(`${other.url}/api/v1/panel/rewards`)).toBe('origin');
      expect(await hop('http://panel.invalid/api/v1/panel/rewards')).toBe('plain-http');
      expect(await hop('http://localhost.evil.example/api/v1/panel/rewards')).toBe('plain-http');
      // This machine by another name is plain http it may speak, but not the panel's origin.
      expect(await hop(`http://LOCALHOST.:${sandbox.port}/api/v1/panel/rewards`)).toBe('origin');
      expect(await hop(`${sandbox.url}/v1/panel/rewards`)).toBe('not-a-read');
      expect(await hop(`${sandbox.url}/api/v1/panel/variables/data/FIRST_NAME`)).toBe('not-a-read');
      expect(await hop(`${sandbox.url}/api/a%2F..%2F/v1/panel/rewards`)).toBe('not-a-read');
      expect(await hop(`${sandbox.url}/api/v1/panel/rewards?id=101`)).toBe('query');
      expect(await hop(`ftp://127.0.0.1/api/v1/panel/rewards`)).toBe('scheme');
      expect(sandbox.requests).toEqual([]);
      // From the client: writes and the redeem are refused unless a write check allowed exactly that one.
      await expect(
        fetch(`${sandbox.url}/api/v1/panel/variables/data`, { method: 'POST', body: '{}' }),
      ).rejects.toBeInstanceOf(NotSentError);
      await expect(fetch(`${sandbox.url}/api/v1/panel/redemption?id=101`)).rejects.toBeInstanceOf(NotSentError);
      wire.allowRedeem(101);
      await expect(fetch(`${sandbox.url}/api/v1/panel/redemption?id=102`)).rejects.toBeInstanceOf(NotSentError);
      expect(sandbox.requests).toEqual([]);
      expect(wire.refused.map((r) => r.kind)).toEqual([
        'redeem',
        'redeem',
        ...Array<string>(9).fill('redeem'),
        'origin',
        'plain-http',
        'plain-http',
        'origin',
        'not-a-read',
        'not-a-read',
        'not-a-read',
        'query',
        'scheme',
        'method',
        'redeem',
        'redeem',
      ]);
    } finally {
      wire.stop();
    }
  });
});

it('follows a hop to the panel’s own origin however its host is spelled, compared in the canonical form', async () => {
  const wire = openWire({ baseUrl: sandbox.url, key: sandbox.token, timeoutMs: 1_000 });
  try {
    const sent = await wire.hop(`http://0x7f.1:${sandbox.port}/v1/panel/rewards`);
    expect('exchange' in sent && sent.exchange.status).toBe(200);
    expect(wire.refused).toEqual([]);
  } finally {
    wire.stop();
  }
});

describe('the panel doctor against panels that hang or never stop talking', () => {
  type Handler = (req: IncomingMessage, res: ServerResponse) => void;
  let handler: Handler = (_, res) => res.end();
  let server: Server;
  let base: string;
  /** Bytes of body each answer had written when its connection closed. */
  let written: number[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    written = [];
  });

  const CHUNK = Buffer.alloc(64 * 1024, ' ');
  /** Streams `total` bytes (Infinity: without end) as fast as the doctor takes them. */
  function stream(total: number, headers: Record<string, string> = {}): Handler {
    return (_, res) => {
      const index = written.push(0) - 1;
      res.writeHead(200, { 'Content-Type': 'application/json', ...headers });
      res.write('{"message": "success", "rewards": [');
      let closed = false;
      res.on('close', () => (closed = true));
      const next = (): void => {
        while (!closed && written[index]! < total) {
          written[index]! += CHUNK.length;
          if (!res.write(CHUNK)) return void res.once('drain', next);
        }
        if (!closed) res.end();
      };
      next();
    };
  }

  it("gives up on a panel that never answers at the extension's time-out, quoting it, with progress meanwhile", async () => {
    handler = () => undefined; // never answers
    // Waiting the extension's own 10 s per attempt would outlast the test's time-out.
    const report = await diagnose({
      baseUrl: base,
      token: 'k',
      balanceVariable: 'POINTS_BALANCE',
      timeoutMs: 300,
      progress: (text) => void (progress = `${progress}${text}`),
    });
    const text = checkReport(report);
    expect(failures(report)).toEqual([
      expect.objectContaining({
        topic: 'Every read',
        text: expect.stringContaining(
          "gave no answer within 10 s, the extension's time-out: the extension gives up on each attempt there, tries a read 2 more times",
        ),
      }),
    ]);
    expect(report.findings).toHaveLength(1);
    expect(text).toContain(`${base}/v1/panel/rewards, /v1/panel/redemptions`);
    expect(text).toContain('Panelists see: The panel did not answer within 10 s. Try again in a moment.');
    expect(progress).toMatch(new RegExp(`GET ${base}/v1/panel/rewards … no answer within 0.3 s`));
  });

  it("stops reading a 50 MB body, declared or not, and an endless one, at the extension's limit, and says so once", async () => {
    const bodies: Record<string, Handler> = {
      '/v1/panel/rewards': stream(50_000_000, { 'Content-Length': String(50_000_000 + 36) }),
      '/v1/panel/redemptions': stream(50_000_000),
      '/v1/panel/variables/meta': stream(Infinity),
      '/v1/panel/variables/data': stream(Infinity),
    };
    handler = (req, res) => bodies[new URL(req.url!, base).pathname]!(req, res);
    // An endless body read whole would never end, and outlast the test's time-out.
    const report = await diagnose({ baseUrl: base, token: 'k', balanceVariable: 'POINTS_BALANCE' });
    checkReport(report);
    expect(failures(report)).toEqual([
      expect.objectContaining({
        topic: 'Every read',
        text: expect.stringContaining(
          "answered with a body over 25 MB, the extension's limit: it stops reading there and uses nothing of it",
        ),
        panelists: expect.stringContaining('the answer is larger than 25 MB, more than the extension reads'),
      }),
    ]);
    expect(formatReport(report)).not.toContain('documented shape');
    // What was read stays within the limit (plus the chunk that crossed it), and the panel was cut off there.
    for (const row of report.reads) expect(row.bytes).toBeLessThanOrEqual(MAX_API_BODY_BYTES + 1_000_000);
    expect(report.reads[0]!.bytes).toBeLessThan(1_000_000); // declared too large: not read at all
    for (const bytes of written) expect(bytes).toBeLessThan(MAX_API_BODY_BYTES + 16_000_000);
  }, 60_000);
});

describe('write checks', () => {
  const EMPTY_SAVE: FaultRule = { method: 'POST', path: '/v1/panel/variables/data', body: '{}', times: 1 };

  it('without --write-checks: sends no write, and the verdict says the write answers were not checked', async () => {
    const report = await run({ faults: [EMPTY_SAVE] });
    expect(sandbox.requests.every((r) => r.method === 'GET')).toBe(true);
    expect(breaksPanelists(report)).toBe(false);
    const text = formatReport(report);
    expect(text).toMatch(
      /Verdict: nothing the doctor looked at would break panelists\.\nNot checked: the answer to a profile save/,
    );
    expect(report.sent).toEqual([]);
  });

  it('saves one variable with the value it holds, reads it back, and passes a panel that confirms', async () => {
    const report = await run({ writeChecks: true });
    expect(finding(report, 'Write check: a profile save')).toMatchObject({
      level: 'ok',
      text: `POST ${sandbox.url}/v1/panel/variables/data {"FIRST_NAME": "Jordan"} (the value it already held) answered 200 with \`{"message":"success"}\`: the extension tells the panelist it is saved. Read back, FIRST_NAME, every other answer and the balance are unchanged.`,
    });
    expect(sandbox.requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([{ FIRST_NAME: 'Jordan' }]);
    expect(report.sent).toEqual([
      { method: 'POST', path: '/v1/panel/variables/data', what: 'a profile save of the value already stored' },
    ]);
    const text = formatReport(report);
    expect(text).toContain("WRITE CHECKS ON: run with a test panelist's key only.");
    expect(flat(report)).toContain(
      'Not checked: the answer to deleting a stored value (the doctor never deletes one); the answer to a redemption (add --redeem-check <reward id>); whether the panel honours Idempotency-Key (add --idempotency-check <reward id>).',
    );
  });

  it('fails a save answered `{}`: the extension needs `message: "success"`', async () => {
    const report = await run({ writeChecks: true, faults: [EMPTY_SAVE] });
    expect(failures(report)).toEqual([
      expect.objectContaining({
        topic: 'Write check: a profile save',
        text: expect.stringContaining(
          'answered 200 with `{}`, not `"message": "success"`, which the extension needs from a write (design §5)',
        ),
        panelists: expect.stringContaining('Unexpected response from /v1/panel/variables/data: message:'),
        change: 'Answer a successful profile save with `{"message": "success"}`.',
      }),
    ]);
  });

  it('puts back a value that reads back changed after the unchanged save', async () => {
    const data = '/v1/panel/variables/data';
    const report = await run({
      writeChecks: true,
      faults: [
        // The read, its conditional repeat, the unknown filter and the fresh read before the save as they are;
        // then the read back shows another value.
        { method: 'GET', path: data, headers: {}, times: 4 },
        {
          method: 'GET',
          path: data,
          body: JSON.stringify({ message: 'success', data: { ...sandbox.state.values, FIRST_NAME: 'JORDAN' } }),
          times: 1,
        },
      ],
    });
    expect(finding(report, 'Write check: a profile save')).toMatchObject({ level: 'ok' });
    expect(failures(report)).toEqual([
      expect.objectContaining({
        text: 'Saving FIRST_NAME unchanged changed it: "Jordan" became "JORDAN". The doctor saved the old value again, and it is back.',
      }),
    ]);
    expect(sandbox.requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
      { FIRST_NAME: 'Jordan' },
      { FIRST_NAME: 'Jordan' },
    ]);
  });

  it('redeems only a named reward the operator confirms, once, and judges the answer and the history', async () => {
    const asked: unknown[] = [];
    const declined = await run({
      writeChecks: true,
      redeem: { rewardId: 101, confirm: async (reward) => (asked.push(reward), false) },
    });
    expect(asked).toEqual([
      { id: 101, name: 'Bluefin Coffee $5 Gift Card', points: 500, balance: 2500, redemptions: 1 },
    ]);
    expect(sandbox.requests.some((r) => r.path === '/v1/panel/redemption')).toBe(false);
    expect(declined.notChecked).toContain('the answer to a redemption (not confirmed)');

    sandbox.reset();
    const unknown = await run({ writeChecks: true, redeem: { rewardId: 999, confirm: async () => true } });
    expect(finding(unknown, 'Write check: a redemption')?.text).toBe(
      "Reward #999 is not among this panelist's 10 rewards. Nothing was redeemed.",
    );

    sandbox.reset();
    const done = await run({ writeChecks: true, redeem: { rewardId: 101, confirm: async () => true } });
    const redeems = sandbox.requests.filter((r) => r.path === '/v1/panel/redemption');
    expect(redeems).toHaveLength(1);
    expect(redeems[0]).toMatchObject({
      method: 'GET',
      query: { id: '101' },
      headers: { 'idempotency-key': expect.any(String) },
    });
    expect(sandbox.state.redemptions).toHaveLength(10);
    expect(finding(done, 'Write check: a redemption')).toMatchObject({
      level: 'ok',
      text: expect.stringContaining('The history read after it shows redemption #'),
    });
    expect(formatReport(done)).toContain(
      "GET /v1/panel/redemption?id=101: a redemption: spends the test panelist's points",
    );
    expect(done.notChecked).toEqual([
      'the answer to deleting a stored value (the doctor never deletes one)',
      'whether the panel honours Idempotency-Key (add --idempotency-check <reward id>)',
    ]);
  });

  it('fails a redemption answered `{}`, and says what the history shows', async () => {
    const report = await run({
      writeChecks: true,
      redeem: { rewardId: 101, confirm: async () => true },
      faults: [{ method: 'GET', path: '/v1/panel/redemption', body: '{}', commit: true, times: 1 }],
    });
    expect(failures(report)).toEqual([
      expect.objectContaining({
        topic: 'Write check: a redemption',
        text: expect.stringMatching(
          /answered 200 with `\{\}`, not `"message": "success"`.*The history read after it shows redemption #\d+: the test panelist's points were spent\./,
        ),
        change: 'Answer a successful redemption with `{"message": "success"}`.',
      }),
    ]);
    expect(sandbox.requests.filter((r) => r.path === '/v1/panel/redemption')).toHaveLength(1);
  });
});

describe('redaction', () => {
  it('matches the key as a whole token, never a piece of a longer one', () => {
    expect(redactSecrets('https://example.com/x-api/v1 x', ['x'])).toBe('https://example.com/x-api/v1 [key]');
    expect(redactSecrets('at http://127.0.0.1:8833, key 1', ['1'])).toBe('at http://127.0.0.1:8833, key [key]');
    expect(redactSecrets('{"token":"abc"} Bearer abc, token=abc&next', ['abc'])).toBe(
      '{"token":"[key]"} Bearer [key], token=[key]&next',
    );
    expect(redactSecrets('abcdef', ['abc'])).toBe('abcdef');
    // A long key is the key wherever it stands, glued to other text too.
    expect(redactSecrets('keysandbox-token-5f2c9a7e41d8!', ['sandbox-token-5f2c9a7e41d8'])).toBe('key[key]!');
  });

  it('does not mangle the report for a one-letter key, and still hides the key the panel echoes', async () => {
    sandbox.otherKeys.add('x');
    const moved = await run({ token: 'x', state: { movedTo: '/x' } });
    expect(finding(moved, 'Redirect')).toMatchObject({
      text: expect.stringContaining(
        `GET ${sandbox.url}/v1/panel/rewards answered 301 to ${sandbox.url}/x/v1/panel/rewards, which answered 200`,
      ),
      change: expect.stringContaining(`Set the API address (apiBaseUrl) to ${sandbox.url}/x,`),
    });
    expect(formatReport(moved)).not.toContain('[key]');

    sandbox.reset();
    sandbox.otherKeys.add('x');
    const echoed = await run({
      token: 'x',
      faults: third('/v1/panel/variables/data', { status: 422, body: '{"message": "Key x may not filter"}' }),
    });
    expect(finding(echoed, 'Error body: a refused read')?.text).toContain('message "Key [key] may not filter"');
    expect(formatReport(echoed)).toContain(`Panel doctor: ${sandbox.url}`);
  });
});
