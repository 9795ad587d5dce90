/**
 * `--idempotency-check`: the same redeem with one `Idempotency-Key`, sent the two ways a browser
 * repeats one, before the doctor may say the panel honours the key:
 *
 * 1. two copies together, as a browser re-sends a request on a reused connection that closed
 *    unanswered while the first may still be processed;
 * 2. once both have answered, a third, as a browser re-sends after the first had its answer lost.
 *
 * A panel that only refuses a redeem while another is in flight (a row lock) answers the first pair
 * 200 and 409, and charges the third: only the second step shows it ignores the key. What was
 * charged is told by the history and by the balance (charges.ts), so a panel whose history lists
 * nothing still fails when its balance fell by two costs. The third is not sent when the pair
 * already charged twice: that is the answer, and a third charge would only cost more points.
 */
import { randomUUID } from 'node:crypto';
import { ENDPOINTS } from '../../../utils/api/client';
import { attempt } from './attempt';
import { bodyQuoted } from './body';
import { chargesShown, ids, type Tally } from './charges';
import { overspent, prepare, tallyOf, type Ready, type SpendContext, type SpendRequest } from './redeem-check';
import type { Finding } from './report-types';
import type { CheckResult } from './write-common';

const TOPIC = 'Write check: Idempotency-Key';

const CHANGE =
  'Honour the Idempotency-Key header on GET /v1/panel/redemption: keep the answer of the first request with a key and give it back for the same key, with 409 while the first is still being processed, for at least 24 hours.';
const PANELISTS =
  'one Confirm charged two or three times when their browser re-sends it after a dropped connection; the extension tells them so, but cannot undo it';

/** Sends `count` copies at once with `key`, and says how each was answered. */
async function send(context: SpendContext, ready: Ready, key: string, count: number): Promise<string[]> {
  const { api, wire } = context;
  const from = wire.exchanges.length;
  await Promise.all(Array.from({ length: count }, () => attempt(() => api.redeem(ready.reward.id, key))));
  return wire.exchanges
    .slice(from)
    .filter((e) => !e.hop && new URL(e.url).pathname.endsWith(ENDPOINTS.redemption))
    .map((e) => (e.status === null ? 'no answer' : `${e.status} with ${bodyQuoted(e)}`));
}

/** What the history and the balance show, in one sentence. */
function evidence(t: Tally): string {
  const history =
    t.historyError !== null
      ? `the history could not be read after them (${t.historyError})`
      : t.made.length === 0
        ? 'the history shows no redemption of it'
        : `the history shows ${t.made.length === 1 ? 'one redemption' : `${t.made.length} redemptions`} (${ids(t.made)})`;
  return `${history}, and ${t.balanceText}`;
}

/** The verdict on the key from what was sent and what the history and balance show after it all. */
function judge(sent: string, t: Tally): { finding: Finding; checked: boolean } {
  const charged = chargesShown(t);
  const shown = `${sent}: ${evidence(t)}.`;
  if (charged !== null && charged >= 2)
    return {
      finding: {
        level: 'fail',
        topic: TOPIC,
        text: `${shown} The panel does not honour the key: the test panelist was charged ${charged} times for one request${t.made.length < charged ? ` (told by the balance${t.historyError === null ? '; the history lists fewer' : ''})` : ''}.`,
        panelists: PANELISTS,
        change: CHANGE,
      },
      checked: true,
    };
  if (charged === null || t.historyError !== null)
    return {
      finding: {
        level: 'warn',
        topic: TOPIC,
        text: `${shown} The doctor cannot say how many redemptions they made.`,
        panelists: 'a Confirm the browser re-sends may be charged more than once',
        change:
          'Check the test panelist’s history and balance by hand: one redemption means the key is honoured, two that it is not.',
      },
      checked: false,
    };
  if (charged === 0)
    return {
      finding: {
        level: 'info',
        topic: TOPIC,
        text: `${shown} ${t.byBalance === 0 ? 'Nothing was charged' : 'Neither shows a charge (the balance cannot tell)'}, so there was nothing to count.`,
      },
      checked: false,
    };
  // One charge, told after the third copy too: the pair alone never reaches here with two.
  if (t.made.length === 0)
    return {
      finding: {
        level: 'fail',
        topic: TOPIC,
        text: `${shown} The balance tells one charge, so the key looks honoured, but the history lists no redemption: the extension settles every Confirm from the history, so it keeps checking for half an hour, then says it was not found.`,
        panelists: 'their redemption “being checked”, then not found, with their points gone',
        change: 'List a redemption in GET /v1/panel/redemptions as soon as the redeem answers success.',
      },
      checked: true,
    };
  return {
    finding: {
      level: 'ok',
      topic: TOPIC,
      text: `${shown} The panel honours the key: a Confirm the browser re-sends, at once or after an answer, is charged once.`,
    },
    checked: true,
  };
}

export async function idempotencyCheck(request: SpendRequest, context: SpendContext): Promise<CheckResult> {
  const ready = await prepare(TOPIC, request, context, 2);
  if (!('reward' in ready)) return ready;
  const { reward } = ready;
  const key = randomUUID();
  context.wire.allowRedeem(reward.id, 3);
  const together = await send(context, ready, key, 2);
  const pair = await tallyOf(context, ready);
  let sent = `Two identical GET ${ENDPOINTS.redemption}?id=${reward.id} (“${reward.name}”) with one Idempotency-Key, sent together, answered ${together.join(' and ')}`;
  let final = pair;
  const pairCharged = chargesShown(pair) ?? 0;
  if (pairCharged < 2) {
    const [later] = await send(context, ready, key, 1);
    final = await tallyOf(context, ready);
    sent += `; a third with the same key, sent once both had answered (as a browser re-sends after a closed connection), answered ${later ?? 'nothing'}`;
  } else sent += ' (a third was not sent: two charges were already shown)';
  const { finding, checked } = judge(sent, final);
  return { findings: [finding, ...overspent(context, ready, final.made, final.after)], checked };
}
