// @vitest-environment node
/**
 * The doctor's checks that spend points, against small hostile panels on 127.0.0.1 that let every
 * redemption through and ignore the Idempotency-Key: before anything leaves, a reward must pass the
 * extension's own rule (utils/reward-view.ts, redeemBlock), and the panels' own records prove that
 * nothing else was sent. A panel that accepts what the balance cannot cover, or charges twice for
 * one key, is a finding; so is a profile save that changes anything beyond the value sent.
 *
 * The Idempotency-Key tests fail on these deliberate breakages: the copy sent after the first two
 * answered left out (a panel that locks instead of honouring the key is then told it honours it);
 * the balance not counted in costs (a panel whose history lists nothing then passes a double charge).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { diagnose, type DiagnoseOptions } from '../tools/doctor/diagnose';
import type { SpendRequest } from '../tools/doctor/redeem-check';
import { formatReport } from '../tools/doctor/report';
import { breaksPanelists, type Finding, type Report } from '../tools/doctor/report-types';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { HOSTILE_KEY, startHostilePanel, type HostileOptions, type HostilePanel } from './hostile-panel';

let panel: HostilePanel | null = null;
let sandbox: Sandbox | null = null;
afterEach(async () => {
  await panel?.close();
  await sandbox?.close();
  panel = null;
  sandbox = null;
});

/** An operator's yes, recorded: a check that asks is one that reached the point of spending. */
function yes(rewardId: number, asked: unknown[] = []): SpendRequest {
  return { rewardId, confirm: async (reward) => (asked.push(reward), true) };
}

async function hostile(options: HostileOptions, diagnoseOptions: Partial<DiagnoseOptions>): Promise<Report> {
  panel = await startHostilePanel(options);
  return diagnose({
    baseUrl: panel.url,
    token: HOSTILE_KEY,
    balanceVariable: 'POINTS_BALANCE',
    writeChecks: true,
    ...diagnoseOptions,
  });
}

const topic = (report: Report, name: string): Finding[] => report.findings.filter((f) => f.topic === name);

describe('--redeem-check sends nothing the extension would refuse', () => {
  it.each([
    [
      108,
      'costs 11,000 points and the balance is 2,500 points: the extension offers no Redeem for it (“You need 8,500 more points”), so the doctor sent nothing either.',
      'the balance does not cover reward #108',
    ],
    [
      101,
      'has reward_point_cost -500 (below zero), a cost the panel cannot mean: the extension quarantines the reward',
      "reward #101's points cost is quarantined",
    ],
    [102, 'has reward_point_cost 999.5 (a fraction: points are whole)', "reward #102's points cost is quarantined"],
    [103, 'has reward_point_cost "1650" (a string, not a number)', "reward #103's points cost is quarantined"],
    [
      105,
      'has no reward_point_cost in the rewards list, a cost nobody gave: the extension quarantines the reward',
      "reward #105's points cost is quarantined",
    ],
  ])('reward #%i: not sent, not even asked, and said why', async (id, says, why) => {
    const asked: unknown[] = [];
    const report = await hostile({}, { redeem: yes(id, asked) });
    expect(panel!.redeems()).toEqual([]);
    expect(panel!.state.redemptions).toEqual([]);
    expect(asked).toEqual([]);
    expect(topic(report, 'Write check: a redemption')).toEqual([
      expect.objectContaining({ level: 'info', text: expect.stringContaining(says) }),
    ]);
    expect(report.notChecked).toContain(`the answer to a redemption (${why})`);
    expect(report.sent.filter((s) => s.method === 'GET')).toEqual([]);
  });

  it('neither does --idempotency-check, nor one that the balance covers once but not twice', async () => {
    const report = await hostile({ state: { balance: 700 } }, { idempotency: yes(108) });
    expect(topic(report, 'Write check: Idempotency-Key')[0]?.text).toContain('the extension offers no Redeem for it');
    await panel!.close();
    const twice = await hostile({ state: { balance: 700 } }, { idempotency: yes(104) });
    expect(topic(twice, 'Write check: Idempotency-Key')[0]?.text).toContain(
      'costs 500 points and the balance is 700 points: the check needs a balance that covers two',
    );
    expect(panel!.redeems()).toEqual([]);
  });

  it('sends one it would make, once, and names a panel that lets it through on points the panelist does not have', async () => {
    // The panel shows no balance: the extension lets the panel decide, and this panel charges 11,000 on none.
    const asked: unknown[] = [];
    const report = await hostile({ state: { balance: null } }, { redeem: yes(108, asked) });
    expect(asked).toEqual([{ id: 108, name: expect.any(String), points: 11_000, balance: null, redemptions: 1 }]);
    expect(panel!.redeems()).toHaveLength(1);
    expect(topic(report, 'Write check: a redemption the balance could not cover')).toEqual([
      expect.objectContaining({
        level: 'fail',
        text: expect.stringMatching(
          /^The panel accepted a redemption of 11,000 points with a balance the extension could not read\. The balance is now -11,000\./,
        ),
        change: expect.stringContaining('Refuse a redemption whose cost the balance does not cover'),
      }),
    ]);
  });

  it('passes an affordable reward on an honest panel, without a finding about the balance', async () => {
    sandbox = await startSandbox();
    const report = await diagnose({
      baseUrl: sandbox.url,
      token: sandbox.token,
      balanceVariable: 'POINTS_BALANCE',
      writeChecks: true,
      redeem: yes(101),
    });
    expect(topic(report, 'Write check: a redemption')[0]?.level).toBe('ok');
    expect(topic(report, 'Write check: a redemption the balance could not cover')).toEqual([]);
    expect(sandbox.requests.filter((r) => r.path === '/v1/panel/redemption')).toHaveLength(1);
  });
});

describe('--idempotency-check', () => {
  it('reports a panel that honours the key: two copies together and one after they answered, one redemption', async () => {
    sandbox = await startSandbox();
    const asked: unknown[] = [];
    const report = await diagnose({
      baseUrl: sandbox.url,
      token: sandbox.token,
      balanceVariable: 'POINTS_BALANCE',
      writeChecks: true,
      idempotency: yes(101, asked),
    });
    expect(asked).toEqual([expect.objectContaining({ id: 101, redemptions: 2 })]);
    const redeems = sandbox.requests.filter((r) => r.path === '/v1/panel/redemption');
    expect(redeems).toHaveLength(3);
    expect(new Set(redeems.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    expect(sandbox.state.redemptions).toHaveLength(10);
    expect(topic(report, 'Write check: Idempotency-Key')).toEqual([
      expect.objectContaining({
        level: 'ok',
        text: expect.stringMatching(
          /with one Idempotency-Key, sent together, answered .*; a third with the same key, sent once both had answered .*: the history shows one redemption \(#\d+\), and the balance went from 2,500 points to 2,000 points: the reward's cost, once\. The panel honours the key/,
        ),
      }),
    ]);
  });

  it('fails a panel that ignores it: the test panelist is charged twice, the third copy is not sent, and the report says so', async () => {
    sandbox = await startSandbox();
    await fetch(`${sandbox.url}/__sandbox/idempotency`, { method: 'PATCH', body: JSON.stringify({ honour: false }) });
    const report = await diagnose({
      baseUrl: sandbox.url,
      token: sandbox.token,
      balanceVariable: 'POINTS_BALANCE',
      writeChecks: true,
      idempotency: yes(101),
    });
    expect(sandbox.state.redemptions).toHaveLength(11);
    expect(sandbox.requests.filter((r) => r.path === '/v1/panel/redemption')).toHaveLength(2);
    expect(topic(report, 'Write check: Idempotency-Key')).toEqual([
      expect.objectContaining({
        level: 'fail',
        text: expect.stringContaining(
          '(a third was not sent: two charges were already shown): the history shows 2 redemptions',
        ),
        change: expect.stringContaining('Honour the Idempotency-Key header on GET /v1/panel/redemption'),
      }),
    ]);
    expect(topic(report, 'Write check: Idempotency-Key')[0]!.text).toContain(
      'The panel does not honour the key: the test panelist was charged 2 times for one request.',
    );
    expect(formatReport(report)).toMatch(/Verdict: 1 problem would break panelists/);
  });

  it('fails a panel that locks instead of honouring the key: 200 and 409 together, then the copy sent after is charged', async () => {
    const report = await hostile({ lock: { ms: 300 } }, { idempotency: yes(104) });
    const redeems = panel!.redeems();
    expect(redeems).toHaveLength(3);
    expect(new Set(redeems.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    expect(panel!.state.redemptions).toHaveLength(2);
    const [finding] = topic(report, 'Write check: Idempotency-Key');
    expect(finding).toMatchObject({ level: 'fail', change: expect.stringContaining('Honour the Idempotency-Key') });
    expect(finding!.text).toMatch(
      /sent together, answered (200 with `\{"message":"success"\}` and 409 with .*|409 with .* and 200 with `\{"message":"success"\}`); a third with the same key, sent once both had answered .*, answered 200/,
    );
    expect(finding!.text).toContain('the history shows 2 redemptions');
    expect(finding!.text).toContain('the test panelist was charged 2 times for one request.');
    expect(breaksPanelists(report)).toBe(true);
  });

  it('fails a silent double charge: the history lists nothing, and the balance fell by twice the cost', async () => {
    const report = await hostile({ unlisted: true }, { idempotency: yes(104) });
    expect(panel!.redeems()).toHaveLength(2);
    const [finding] = topic(report, 'Write check: Idempotency-Key');
    expect(finding).toMatchObject({ level: 'fail' });
    expect(finding!.text).toContain(
      "the history shows no redemption of it, and the balance went from 2,500 points to 1,500 points: 2 times the reward's cost.",
    );
    expect(finding!.text).toContain(
      'the test panelist was charged 2 times for one request (told by the balance; the history lists fewer).',
    );
    expect(report.notChecked.join()).not.toContain('Idempotency-Key');
  });

  it('passes the key on a panel that honours it but fails its history for listing nothing, told by the balance', async () => {
    const report = await hostile({ unlisted: true, honourKey: true }, { idempotency: yes(104) });
    expect(panel!.redeems()).toHaveLength(3);
    const [finding] = topic(report, 'Write check: Idempotency-Key');
    expect(finding).toMatchObject({ level: 'fail', change: expect.stringContaining('List a redemption') });
    expect(finding!.text).toContain("the balance went from 2,500 points to 2,000 points: the reward's cost, once.");
    expect(finding!.text).toContain('The balance tells one charge, so the key looks honoured');
  });
});

describe('--redeem-check whose history shows nothing', () => {
  it('says whether the balance fell', async () => {
    const report = await hostile({ unlisted: true }, { redeem: yes(104) });
    const [finding] = topic(report, 'Write check: a redemption');
    expect(finding).toMatchObject({ level: 'fail' });
    expect(finding!.text.replace(/\s+/g, ' ')).toContain(
      "the history read after it shows no new redemption of reward #104, and the balance went from 2,500 points to 2,000 points: the reward's cost, once.",
    );
  });

  it('fails a refusal that takes the points all the same', async () => {
    const report = await hostile(
      {
        unlisted: true,
        intercept(request, n) {
          if (request.path !== '/v1/panel/redemption') return undefined;
          panel!.state.balance = Number(panel!.state.balance) - 500;
          return { status: 422, body: { message: `Not enough points (${n}).` } };
        },
      },
      { redeem: yes(104) },
    );
    const [finding] = topic(report, 'Write check: a redemption');
    expect(finding).toMatchObject({ level: 'fail', change: expect.stringContaining('Refuse a redemption only when') });
    expect(finding!.text).toContain("the balance went from 2,500 points to 2,000 points: the reward's cost, once.");
  });
});

describe('the profile-save check reads everything back', () => {
  it('reports a changed value, an added variable and points awarded per save, each', async () => {
    const report = await hostile(
      {
        onSave(sent, state) {
          for (const [name, value] of Object.entries(sent)) state.values[name] = String(value).toUpperCase();
          state.values.LAST_SAVED = 'today';
          state.balance = Number(state.balance) + 100;
        },
      },
      {},
    );
    const found = topic(report, 'Write check: a profile save');
    expect(found.map((f) => [f.level, f.text])).toEqual([
      ['ok', expect.stringContaining('answered 200 with `{"message":"success"}`')],
      [
        'fail',
        'Saving FIRST_NAME unchanged changed it: "Jordan" became "JORDAN". The doctor could not put it back: set FIRST_NAME of the test panelist to "Jordan" by hand.',
      ],
      [
        'fail',
        'Saving FIRST_NAME unchanged also changed the other answers: LAST_SAVED added ("today"). The doctor does not undo these: put them back by hand.',
      ],
      [
        'fail',
        "The balance went from 2,500 points to 2,600 points with a profile save that changed nothing (2,700 points after the doctor's save to put FIRST_NAME back).",
      ],
    ]);
  });

  it('says nothing changed when nothing did', async () => {
    const report = await hostile({}, {});
    expect(topic(report, 'Write check: a profile save')).toEqual([
      expect.objectContaining({
        level: 'ok',
        text: expect.stringContaining('Read back, FIRST_NAME, every other answer and the balance are unchanged.'),
      }),
    ]);
  });
});
