// @vitest-environment node
/**
 * What the doctor says about a panel's data and answers, against small hostile panels: broken
 * rewards (each problem named with the value, what the extension does with it, how to fix it),
 * answers a shared cache may give to another panelist, reads the panel rate-limited, a sign-in
 * page where the API should be, and the report as JSON for CI.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { diagnose } from '../tools/doctor/diagnose';
import { formatReport, jsonReport } from '../tools/doctor/report';
import type { Finding, Report } from '../tools/doctor/report-types';
import { HOSTILE_KEY, startHostilePanel, type HostileOptions, type HostilePanel } from './hostile-panel';

let panel: HostilePanel | null = null;
afterEach(async () => {
  await panel?.close();
  panel = null;
});

async function doctor(options: HostileOptions = {}): Promise<Report> {
  panel = await startHostilePanel(options);
  return diagnose({ baseUrl: panel.url, token: HOSTILE_KEY, balanceVariable: 'POINTS_BALANCE' });
}

const about = (report: Report, words: string): Finding | undefined =>
  report.findings.find((f) => f.text.includes(words));

const reward = (id: number, name: string, fields: Record<string, unknown>) => ({
  id,
  name,
  cost: 5,
  cost_currency: 'USD',
  type: 'giftcard_aggregator',
  image_url: '',
  meta_data: {},
  reward_point_cost: 500,
  ...fields,
});

describe('broken rewards', () => {
  it('names each cost the extension quarantines with what is wrong with it, apart from a missing one', async () => {
    const report = await doctor();
    expect(about(report, 'a reward_point_cost the extension cannot take')).toMatchObject({
      level: 'warn',
      text:
        '3 rewards have a reward_point_cost the extension cannot take: #101 “Minus Five Hundred Card” -500 (below zero), ' +
        '#102 “Half Point Card” 999.5 (a fraction: points are whole), #103 “String Cost Card” "1650" (a string, not a number). ' +
        'The extension quarantines each: listed without a points cost, marked “Cannot be redeemed here: the panel gave it a cost that cannot be right”, ' +
        'with no Redeem, and its background refuses to send a redemption of it.',
      change: expect.stringContaining('as a JSON number (1650, not "1650")'),
    });
    expect(about(report, 'no reward_point_cost')?.text).toMatch(
      /^1 reward has no reward_point_cost \(#105 “No Cost Card”\)/,
    );
  });

  it('flags a free reward, a price it quarantines, and currencies that are not ISO 4217 codes', async () => {
    const report = await doctor({
      state: {
        rewards: [
          reward(1, 'Free Card', { reward_point_cost: 0 }),
          reward(2, 'Negative Price Card', { cost: -10 }),
          reward(3, 'XYZ Card', { cost_currency: 'XYZ' }),
          reward(4, 'Lower Case Card', { cost_currency: 'usd' }),
          reward(5, 'Fine Card', {}),
          reward(6, 'Null Price Card', { cost: null }),
          reward(7, 'Huge Price Card', { cost: 1e308 }),
          reward(8, 'Numbered Currency Card', { cost_currency: 840 }),
          reward(9, 'Unpriced Card', { cost: undefined, cost_currency: undefined }),
        ],
      },
    });
    // Each record on its own: a price the extension cannot take quarantines that reward, never the read.
    expect(report.findings.filter((f) => f.level === 'fail')).toEqual([]);
    expect(about(report, 'prices the extension cannot take')).toMatchObject({
      level: 'warn',
      text:
        '3 rewards have prices the extension cannot take: #2 “Negative Price Card” cost -10 (below zero), ' +
        '#7 “Huge Price Card” cost 1e+308 (more than USD prints exactly: at most 15 digits), ' +
        '#8 “Numbered Currency Card” cost_currency 840 (not text). ' +
        'The extension quarantines each: listed without a price, marked “Cannot be redeemed here: the panel gave it a cost that cannot be right”, ' +
        'with no Redeem, and its background refuses to send a redemption of it.',
    });
    expect(about(report, 'no value in money')).toMatchObject({
      level: 'warn',
      text:
        '2 rewards have no value in money (#6 “Null Price Card” cost null, #9 “Unpriced Card” no cost, no cost_currency): ' +
        'the extension quarantines each: marked “Cannot be redeemed here: the panel gave it no value in money”, ' +
        'with no Redeem, and its background refuses to send a redemption of it.',
    });
    expect(about(report, 'costs 0 points')).toMatchObject({
      level: 'warn',
      text: '1 reward costs 0 points (#1 “Free Card”): the extension offers it as free, with Redeem enabled for every panelist, even one with no points.',
    });
    expect(about(report, 'money value')).toMatchObject({
      level: 'warn',
      text:
        '2 rewards have money values the extension does not show: ' +
        '#3 “XYZ Card” cost_currency "XYZ" (not an ISO 4217 code), #4 “Lower Case Card” cost_currency "usd" (lower case). ' +
        'It shows their points alone, never a price it cannot trust (design §8).',
    });
    expect(formatReport(report)).not.toContain('Fine Card');
  });

  it('does not call a balance sent as a string "ok" when a cost sent so is quarantined', async () => {
    const report = await doctor({ state: { balance: '2500' } });
    expect(report.findings.filter((f) => f.topic === 'Balance (design §2)')).toEqual([
      expect.objectContaining({ level: 'ok', text: expect.stringMatching(/^2,500 points, from/) }),
      expect.objectContaining({
        level: 'warn',
        text: expect.stringContaining('`points` is sent as a string ("2500"), not a JSON number.'),
        change: 'Send `points` as a JSON number (2500, not "2500"), as every points value must be.',
      }),
    ]);
  });
});

describe('answers', () => {
  it('fails answers a shared cache may give to another panelist, and passes them with Vary: Authorization', async () => {
    const shared = await doctor({ readHeaders: { 'Cache-Control': 'public, max-age=300' } });
    expect(shared.findings.find((f) => f.topic === 'Caching')).toMatchObject({
      level: 'fail',
      text: expect.stringMatching(
        /^GET \/v1\/panel\/rewards \(Cache-Control: public, max-age=300, no Vary\); GET \/v1\/panel\/redemptions .*may keep these answers and give them to the next panelist/,
      ),
      panelists: "another panelist's balance, rewards, history or profile, from the cache",
    });
    await panel!.close();
    const varied = await doctor({ readHeaders: { 'Cache-Control': 'public, max-age=300', Vary: 'Authorization' } });
    expect(varied.findings.find((f) => f.topic === 'Caching')?.level).toBe('ok');
    await panel!.close();
    const revalidated = await doctor({ readHeaders: { 'Cache-Control': 'must-revalidate, max-age=0' } });
    expect(revalidated.findings.find((f) => f.topic === 'Caching')?.level).toBe('fail');
  });

  it('puts a read the panel rate-limited in the report, not only in the progress', async () => {
    const report = await doctor({
      intercept: (request, n) =>
        n === 1 && request.path === '/v1/panel/rewards'
          ? { status: 429, headers: { 'Retry-After': '1' }, body: { message: 'Too many requests.' } }
          : undefined,
    });
    expect(report.reads[0]).toMatchObject({ status: 200, attempts: 2, summary: '6 rewards' });
    expect(report.findings.find((f) => f.topic === 'Rate limit')).toMatchObject({
      level: 'warn',
      text: expect.stringMatching(
        /^GET \/v1\/panel\/rewards answered 429 \(Retry-After: 1\), then 200, [\d,]+ bytes, \d+ ms\./,
      ),
    });
    expect(formatReport(report)).toMatch(/GET \/v1\/panel\/rewards +200 \(try 2\)/);
  });

  it('tells a sign-in page where the API should be, naming it', async () => {
    const page =
      '<!doctype html><html><head><title>Sign in – Acme SSO</title></head><body><form method="post"><input name="user"><input type="password" name="pw"></form></body></html>';
    const report = await doctor({
      intercept: () => ({ headers: { 'Content-Type': 'text/html; charset=utf-8' }, text: page }),
    });
    expect(report.findings).toEqual([
      expect.objectContaining({
        level: 'fail',
        topic: 'Every read',
        text: expect.stringContaining(
          "answered 200 with a sign-in page (titled “Sign in – Acme SSO”), not the API's JSON: a sign-in wall",
        ),
        change: expect.stringContaining('exempt those paths from the sign-in proxy'),
      }),
    ]);
  });

  it('gives the report as JSON for CI, with the verdict as fields', async () => {
    const report = await doctor({ readHeaders: { 'Cache-Control': 'public' } });
    const json = JSON.parse(JSON.stringify(jsonReport(report))) as Record<string, any>;
    expect(json).toMatchObject({
      tool: 'panel-doctor',
      format: 1,
      baseUrl: panel!.url,
      verdict: { breaksPanelists: true, failures: 1 },
    });
    expect(json.findings).toContainEqual(expect.objectContaining({ level: 'fail', topic: 'Caching' }));
    expect(json.reads).toHaveLength(4);
  });
});
