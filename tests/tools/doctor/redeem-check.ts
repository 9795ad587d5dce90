/**
 * The redemption write checks, each for a reward the operator names and confirms, on a test
 * panelist's key. They spend points, so before anything is sent the reward must pass the
 * extension's own rule (utils/reward-view.ts, `redeemBlock`): a reward whose points cost the
 * extension quarantines, or whose cost the balance does not cover, is one the extension offers no
 * Redeem for, and the doctor sends nothing for it either.
 *
 * - `--redeem-check`: one redemption with an `Idempotency-Key`, judged as the extension settles
 *   one: its answer, and the history read before and after it (design §5). A panel that accepted
 *   a redemption the balance could not cover is a finding.
 * - `--idempotency-check` (idempotency-check.ts): the same key sent more than once.
 *
 * What a check charged is told by the history and by the balance (charges.ts).
 */
import { randomUUID } from 'node:crypto';
import { ENDPOINTS, type PanelClient } from '../../../utils/api/client';
import { BALANCE_FIELDS } from '../../../utils/balance';
import { tp } from '../../../utils/i18n';
import { rewardIdOf } from '../../../utils/ids';
import { redeemBlock } from '../../../utils/reward-view';
import type { Redemption, Reward } from '../../../utils/types';
import { attempt } from './attempt';
import { bodyQuoted } from './body';
import { ids, tally, type Tally } from './charges';
import { costProblem } from './costs';
import type { Finding } from './report-types';
import type { Exchange, Wire } from './wire';
import {
  answerText,
  hasMessage,
  lastOf,
  pointsText,
  readAccount,
  type AccountRead,
  type CheckResult,
} from './write-common';

export interface SpendRequest {
  rewardId: number;
  /**
   * The operator's yes, asked once the reward is known to pass the extension's rule; the CLI asks at
   * the terminal, or takes `--yes-spend-points`. `redemptions`: how many this check may make.
   */
  confirm(reward: {
    id: number;
    name: string;
    points: number | null;
    balance: number | null;
    redemptions: 1 | 2;
  }): Promise<boolean>;
}

export interface SpendContext {
  api: PanelClient;
  wire: Wire;
  /** The rewards as the extension parsed them (quarantined costs read as null, marked `costRefused`). */
  rewards: Reward[] | undefined;
  /** The same rewards as the panel wrote them, by id: to say what is wrong with a cost. */
  raw: Map<number, Record<string, unknown>>;
  /** The balance the reads found (design §2), when a fresh read cannot be made. */
  balance: number | null;
  balanceVariable: string;
}

/** Ready to send: the reward, the balance the rule was judged with, and the baseline (history and balance). */
export type Ready = { reward: Reward; balance: number | null; known: Set<string>; before: AccountRead };

/** What is wrong with a quarantined reward's points cost, by the extension's reason (utils/reward-view.ts). */
const QUARANTINED = {
  impossible: (raw: unknown) => `has reward_point_cost ${costProblem(raw)}, a cost the panel cannot mean`,
  missing: () => 'has no reward_point_cost in the rewards list, a cost nobody gave',
  conflicting: () => 'is listed twice in the rewards list with different reward_point_costs, a cost nobody gave',
  unpriced: () => 'has no value in money in the rewards list (cost or cost_currency left out)',
} as const;

export const notSent = (topic: string, text: string, why: string): CheckResult => ({
  findings: [{ level: 'info', topic, text: `${text} Nothing was redeemed.` }],
  checked: false,
  why,
});

/**
 * Everything before the first redeem leaves: the reward looked up, the balance read fresh, the
 * extension's rule (and, for two redemptions, a balance that covers both), the operator's yes, and
 * the history read just before, as the extension reads its baseline (design §5).
 */
export async function prepare(
  topic: string,
  request: SpendRequest,
  context: SpendContext,
  redemptions: 1 | 2,
): Promise<Ready | CheckResult> {
  const { rewardId } = request;
  const { api, rewards, raw } = context;
  if (!rewards)
    return notSent(
      topic,
      `The rewards could not be read, so reward #${rewardId} could not be looked up.`,
      'the rewards could not be read',
    );
  const reward = rewards.find((r) => r.id === rewardIdOf(rewardId));
  if (!reward)
    return notSent(
      topic,
      `Reward #${rewardId} is not among this panelist's ${rewards.length} rewards.`,
      `reward #${rewardId} is not in the list`,
    );
  const fresh = await readAccount(api, context.balanceVariable);
  const balance = fresh.failed ? context.balance : fresh.balance;
  const named = `Reward #${rewardId} “${reward.name}”`;
  const block = redeemBlock(reward, balance);
  if (block?.kind === 'cost-refused')
    return notSent(
      topic,
      `${named} ${QUARANTINED[block.reason](raw.get(rewardId)?.reward_point_cost)}: the extension quarantines the reward (shown without a points cost and without Redeem, and its background refuses to send one), so the doctor sent nothing either.`,
      `reward #${rewardId}'s points cost is quarantined`,
    );
  if (block?.kind === 'short')
    return notSent(
      topic,
      `${named} costs ${pointsText(reward.reward_point_cost)} and the balance is ${pointsText(balance)}: the extension offers no Redeem for it (“${tp('needMorePoints', block.missing)}”), so the doctor sent nothing either. Name a reward the test panelist can afford.`,
      `the balance does not cover reward #${rewardId}`,
    );
  const cost = reward.reward_point_cost;
  if (redemptions === 2 && balance !== null && cost !== null && balance < 2 * cost)
    return notSent(
      topic,
      `${named} costs ${pointsText(cost)} and the balance is ${pointsText(balance)}: the check needs a balance that covers two, so that a panel ignoring the key can make the second redemption too (else the balance, not the key, would refuse it). Name a cheaper reward, or add points to the test panelist.`,
      `the balance does not cover reward #${rewardId} twice`,
    );
  if (!(await request.confirm({ id: rewardId, name: reward.name, points: cost, balance, redemptions })))
    return notSent(topic, `Redeeming reward #${rewardId} was not confirmed.`, 'not confirmed');
  const baseline = await attempt(() => api.listRedemptions());
  if (!baseline.ok)
    return notSent(
      topic,
      `The history could not be read just before (${baseline.error.message}), and without it the redemption could not be told apart, as the extension would not send one either.`,
      'the history could not be read first',
    );
  // The balance before sending, read after the baseline, as the extension reads it (design §5).
  const before = await readAccount(api, context.balanceVariable);
  return { reward, balance, known: new Set(baseline.value.map((r) => r.id)), before };
}

/** The history and the balance read after the redeem(s), against the baseline. */
export const tallyOf = (context: SpendContext, ready: Ready, before: AccountRead = ready.before): Promise<Tally> =>
  tally(context.api, context.balanceVariable, ready.known, ready.reward.id, before, ready.reward.reward_point_cost);

export async function redeemCheck(request: SpendRequest, context: SpendContext): Promise<CheckResult> {
  const topic = 'Write check: a redemption';
  const ready = await prepare(topic, request, context, 1);
  if (!('reward' in ready)) return ready;
  const { api, wire } = context;
  const { reward } = ready;
  wire.allowRedeem(reward.id);
  const answer = await attempt(() => api.redeem(reward.id, randomUUID()));
  const exchange = lastOf(wire, 'GET', ENDPOINTS.redemption);
  const after = await tallyOf(context, ready);
  const { made } = after;
  const sent = `GET ${exchange?.url ?? ENDPOINTS.redemption} (reward #${reward.id} “${reward.name}”, with an Idempotency-Key)`;
  // With no new redemption listed, the balance says whether points were taken all the same.
  const ledger =
    after.historyError !== null
      ? `The history could not be read after it (${after.historyError}), so the extension would keep the redemption open and check again; ${after.balanceText}.`
      : made.length > 0
        ? `The history read after it shows redemption ${ids(made)}: the test panelist's points were spent.`
        : `The history read after it shows no new redemption of reward #${reward.id}, and ${after.balanceText}.`;
  const findings = answerFindings({ topic, sent, ledger, exchange, answer, after });
  findings.push(...overspent(context, ready, made, after.after));
  return { findings, checked: true };
}

interface Judged {
  topic: string;
  sent: string;
  ledger: string;
  exchange: Exchange | undefined;
  answer: Awaited<ReturnType<typeof attempt<void>>>;
  after: Tally;
}

/** The redeem's answer as the extension takes it, with what the history and the balance show (design §5). */
function answerFindings({ topic, sent, ledger, exchange, answer, after }: Judged): Finding[] {
  const { made } = after;
  const historyRead = after.historyError === null;
  const quoted = `${exchange?.status} with ${bodyQuoted(exchange)}`;
  if (answer.ok) {
    if (!historyRead || made.length > 0)
      return [
        {
          level: 'ok',
          topic,
          text: `${sent} answered ${quoted}: the extension says it went through and settles it from the history (design §5). ${ledger}`,
        },
      ];
    return [
      {
        level: 'fail',
        topic,
        text: `${sent} answered ${quoted}, but ${ledger[0]!.toLowerCase()}${ledger.slice(1)} The extension settles every redemption from the history: it keeps checking for half an hour, then says it was not found.`,
        panelists: 'their redemption “being checked”, then not found',
        change: 'List a redemption in GET /v1/panel/redemptions as soon as the redeem answers success.',
      },
    ];
  }
  const { error } = answer;
  if ((error.kind === 'rejected' || error.kind === 'not_allowed') && made.length === 0) {
    if ((after.byBalance ?? 0) > 0)
      return [
        {
          level: 'fail',
          topic,
          text: `${sent} was refused: ${quoted}. ${ledger} A refusal that takes the points is not “nothing charged”: the extension says so only when neither the history nor the balance shows the points gone, so it keeps checking, and panelists are left with a refusal and the points gone.`,
          panelists: `${error.message}, and then their balance lower by the reward's cost`,
          change: 'Refuse a redemption only when nothing was charged; list every charged one in the history.',
        },
      ];
    if (hasMessage(exchange))
      return [
        {
          level: 'ok',
          topic,
          text: `${sent} was refused: ${quoted}. ${ledger} The extension shows the panel's own words and, once the history confirms it, that nothing was charged.`,
        },
      ];
    return [
      {
        level: 'warn',
        topic,
        text: `${sent} was refused: ${quoted}, without a \`message\` saying why. ${ledger}`,
        panelists: error.message,
        change:
          'Give a refused redemption a `message` a panelist understands (for example how many points are missing).',
      },
    ];
  }
  // The answer is unclear to the extension (design §5): the history decides, and meanwhile it says so.
  const then = !historyRead
    ? ''
    : made.length > 0
      ? ' The extension reads the history right after such an answer and finds it there, but until then shows the panelist this answer, and with a history that lags it stays “being checked” for up to half an hour.'
      : ' The extension reads the history after such an answer, finds nothing, and keeps checking for up to half an hour before saying it was not found.';
  const status = exchange?.status ?? 0;
  return [
    {
      level: 'fail',
      topic,
      text: `${sent} ${answerText(error, exchange)}. ${ledger}${then}`,
      panelists: error.message,
      change:
        status >= 200 && status < 300
          ? 'Answer a successful redemption with `{"message": "success"}`.'
          : status >= 400 && status < 500
            ? 'Refuse a redemption only when nothing was charged, and list every charged one in the history.'
            : 'Answer a redemption with 200 and `{"message": "success"}` once it is made, or a 4xx with a `message` when it is refused.',
    },
  ];
}

/** A balance field below zero in the last answer of this read, as the panel wrote it (the extension leaves such a balance unread). */
function negativeBalance(wire: Wire, endpoint: string): number | null {
  try {
    const body = JSON.parse(lastOf(wire, 'GET', endpoint)?.body ?? '') as Record<string, unknown>;
    const field = BALANCE_FIELDS.find((f) => Number(body[f]) < 0);
    return field ? Number(body[field]) : null;
  } catch {
    return null;
  }
}

/**
 * Whether the panel let a redemption through that the balance could not cover: its cost (the
 * history's record of it) above the balance read just before, or a balance below zero after it.
 */
export function overspent(context: SpendContext, ready: Ready, made: Redemption[], after: AccountRead): Finding[] {
  if (made.length === 0) return [];
  const cost = made.reduce((sum, r) => sum + (r.reward_point_cost ?? ready.reward.reward_point_cost ?? 0), 0);
  const below =
    negativeBalance(context.wire, ENDPOINTS.rewards) ?? negativeBalance(context.wire, ENDPOINTS.variablesData);
  const over = ready.balance !== null && cost > ready.balance;
  if (!over && below === null) return [];
  const was =
    ready.balance === null ? 'a balance the extension could not read' : `a balance of ${pointsText(ready.balance)}`;
  const now =
    below !== null
      ? ` The balance is now ${below.toLocaleString('en')}.`
      : after.failed
        ? ''
        : ` The balance is now ${pointsText(after.balance)}.`;
  return [
    {
      level: 'fail',
      topic: 'Write check: a redemption the balance could not cover',
      text: `The panel accepted ${made.length === 1 ? 'a redemption' : `${made.length} redemptions`} of ${pointsText(cost)} with ${was}.${now} The interface's precondition is a balance of at least the cost; the extension shows no Redeem for such a reward when it knows both, but a panelist whose balance it does not know, or a request sent twice, meets the panel alone.`,
      panelists:
        'a reward delivered on points they do not have, and then a balance below zero the extension refuses to show',
      change:
        'Refuse a redemption whose cost the balance does not cover, with a 4xx and a `message` saying how many points are missing, and charge nothing.',
    },
  ];
}
