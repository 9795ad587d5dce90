/**
 * Write checks (`--write-checks`, a test panelist only): the answers the extension needs from a
 * profile save and, when the operator names a reward and confirms, from a redemption. Each goes
 * through the extension's own client, whose rule is design §5: a write whose `message` is not
 * `success` is an error. The save writes one variable the value it already holds and reads it back
 * (restoring it if the panel changed it); the redemption spends the test panelist's points, so it
 * is sent only after the operator's explicit yes, exactly once, and judged against the history
 * read before and after it, as the extension settles every redemption (design §5).
 */
import { randomUUID } from 'node:crypto';
import type { PanelApi } from '../../../utils/api/client';
import { ENDPOINTS } from '../../../utils/api/client';
import type { AppError } from '../../../utils/errors';
import type { Redemption, Reward, StoredValues, VariableDefinition, VariableValue } from '../../../utils/types';
import { attempt } from './attempt';
import { bodyQuoted } from './body';
import type { Finding } from './report-types';
import type { Exchange, Wire } from './wire';
import { rewardIdOf } from '../../../utils/ids';

export interface CheckResult {
  findings: Finding[];
  /** Whether the answer was looked at (else the verdict says it was not). */
  checked: boolean;
  /** Why it was not, when it was not. */
  why?: string;
}

const lastOf = (wire: Wire, method: string, endpoint: string): Exchange | undefined =>
  [...wire.exchanges]
    .reverse()
    .find((e) => !e.hop && e.method === method && new URL(e.url).pathname.endsWith(endpoint));

const same = (a: VariableValue | undefined, b: VariableValue | undefined) => JSON.stringify(a) === JSON.stringify(b);

/** A variable to save unchanged: writable, stored, of a format that goes back as it came (text first). */
export function pickVariable(meta: VariableDefinition[], values: StoredValues): VariableDefinition | undefined {
  const stored = meta.filter((v) => v.writable && Object.hasOwn(values, v.name));
  const value = (v: VariableDefinition) => values[v.name];
  return (
    stored.find((v) => v.type === 'text' && typeof value(v) === 'string') ??
    stored.find((v) => v.type === 'date' && typeof value(v) === 'string') ??
    stored.find((v) => v.options.length > 0 && v.type !== 'checkbox' && typeof value(v) === 'number') ??
    stored.find((v) => v.type === 'checkbox' && Array.isArray(value(v)))
  );
}

/** What a failed write's answer means, for the finding's text. */
function answerText(error: AppError, exchange: Exchange | undefined): string {
  const status = exchange?.status;
  if (exchange?.failure?.kind === 'timeout') return "gave no answer within the extension's time-out";
  if (exchange?.failure) return 'could not be reached';
  if (exchange?.redirectedTo)
    return `answered ${status} to ${exchange.redirectedTo} (the extension follows no redirect)`;
  if (status !== undefined && status !== null && status >= 200 && status < 300) {
    return `answered ${status} with ${bodyQuoted(exchange)}, not \`"message": "success"\`, which the extension needs from a write (design §5)`;
  }
  return `answered ${status ?? error.kind} with ${bodyQuoted(exchange)}`;
}

export async function profileSaveCheck(
  api: PanelApi,
  wire: Wire,
  meta: VariableDefinition[],
  values: StoredValues,
): Promise<CheckResult> {
  const topic = 'Write check: a profile save';
  const variable = pickVariable(meta, values);
  if (!variable) {
    return {
      findings: [
        {
          level: 'info',
          topic,
          text: 'No writable variable holds a value for this panelist, so none could be saved unchanged: nothing was written.',
        },
      ],
      checked: false,
      why: 'no writable variable with a stored value',
    };
  }
  const { name } = variable;
  const before = values[name]!;
  const shown = `{"${name}": ${JSON.stringify(before)}}`;
  wire.allowSaves(1);
  const saved = await attempt(() => api.updateValues({ [name]: before }));
  const exchange = lastOf(wire, 'POST', ENDPOINTS.variablesData);
  const sent = `POST ${exchange?.url ?? ENDPOINTS.variablesData} ${shown} (the value it already held)`;
  const findings: Finding[] = [];
  if (saved.ok) {
    findings.push({
      level: 'ok',
      topic,
      text: `${sent} answered ${exchange?.status} with ${bodyQuoted(exchange)}: the extension tells the panelist it is saved.`,
    });
  } else {
    const { error } = saved;
    const refused = error.kind === 'rejected' || error.kind === 'not_allowed';
    findings.push({
      level: 'fail',
      topic,
      text: `${sent} ${answerText(error, exchange)}. ${refused ? 'The panel refused a value it stores itself: every panelist who saves this answer unchanged is refused.' : 'After every profile save, the extension tells panelists it is not confirmed, saved or not.'}`,
      panelists: error.message,
      change: refused
        ? `Accept a save of ${name} with the value the panel itself returns for it (the formats of design §4).`
        : exchange?.status && exchange.status >= 200 && exchange.status < 300
          ? 'Answer a successful profile save with `{"message": "success"}`.'
          : 'Answer a profile save with 200 and `{"message": "success"}` once it is stored.',
    });
  }
  // Read back: an unchanged save must leave the value as it was; if not, it is put back.
  const after = await attempt(() => api.readValues());
  if (!after.ok) {
    findings.push({
      level: 'warn',
      topic,
      text: `${name} could not be read back after the save (${after.error.message}), so the doctor cannot say it is unchanged.`,
      panelists: after.error.message,
      change: `Check ${name} of the test panelist by hand: it should still be ${JSON.stringify(before)}.`,
    });
  } else if (!same(after.value.values[name], before)) {
    wire.allowSaves(1);
    const restored = await attempt(() => api.updateValues({ [name]: before }));
    const check = restored.ok ? await attempt(() => api.readValues()) : null;
    const back = check?.ok === true && same(check.value.values[name], before);
    findings.push({
      level: 'fail',
      topic,
      text: `Saving ${name} unchanged changed it: ${JSON.stringify(before)} became ${JSON.stringify(after.value.values[name] ?? null)}. ${back ? 'The doctor saved the old value again, and it is back.' : `The doctor could not put it back: set ${name} of the test panelist to ${JSON.stringify(before)} by hand.`}`,
      panelists: 'their answer changed after saving it unchanged',
      change: `Store a saved value as it was sent, and return it in the same format from GET ${ENDPOINTS.variablesData} (design §3, §4).`,
    });
  } else {
    // Unchanged, as it should be: said with the save's own finding when that one is fine.
    const [save] = findings;
    if (save?.level === 'ok') findings[0] = { ...save, text: `${save.text} Read back, ${name} is unchanged.` };
    else findings.push({ level: 'info', topic, text: `Read back, ${name} is unchanged.` });
  }
  return { findings, checked: exchange !== undefined && exchange.status !== null };
}

export interface RedeemRequest {
  rewardId: number;
  /**
   * The operator's yes, asked once the reward and the balance are known; the CLI asks at the
   * terminal, or takes `--yes-spend-points`.
   */
  confirm(reward: { id: number; name: string; points: number | null; balance: number | null }): Promise<boolean>;
}

export async function redeemCheck(
  api: PanelApi,
  wire: Wire,
  request: RedeemRequest,
  rewards: Reward[] | undefined,
  balance: number | null,
): Promise<CheckResult> {
  const topic = 'Write check: a redemption';
  const { rewardId } = request;
  const notSent = (text: string, why: string): CheckResult => ({
    findings: [{ level: 'info', topic, text: `${text} Nothing was redeemed.` }],
    checked: false,
    why,
  });
  if (!rewards)
    return notSent(
      `The rewards could not be read, so reward #${rewardId} could not be looked up.`,
      'the rewards could not be read',
    );
  const reward = rewards.find((r) => r.id === rewardIdOf(rewardId));
  if (!reward)
    return notSent(
      `Reward #${rewardId} is not among this panelist's ${rewards.length} rewards.`,
      `reward #${rewardId} is not in the list`,
    );
  if (!(await request.confirm({ id: rewardId, name: reward.name, points: reward.reward_point_cost, balance }))) {
    return notSent(`Redeeming reward #${rewardId} was not confirmed.`, 'not confirmed');
  }
  // As the extension does: the history read fresh just before sending is the baseline (design §5).
  const baseline = await attempt(() => api.listRedemptions());
  if (!baseline.ok) {
    return notSent(
      `The history could not be read just before (${baseline.error.message}), and without it the redemption could not be told apart, as the extension would not send one either.`,
      'the history could not be read first',
    );
  }
  const known = new Set(baseline.value.map((r) => r.id));
  wire.allowRedeemOnce(rewardId);
  const answer = await attempt(() => api.redeem(reward.id, randomUUID()));
  const exchange = lastOf(wire, 'GET', ENDPOINTS.redemption);
  const history = await attempt(() => api.listRedemptions());
  const made: Redemption[] = history.ok
    ? history.value.filter((r) => !known.has(r.id) && r.reward?.id === reward.id)
    : [];
  const sent = `GET ${exchange?.url ?? ENDPOINTS.redemption} (reward #${rewardId} “${reward.name}”, with an Idempotency-Key)`;
  const ledger = !history.ok
    ? `The history could not be read after it (${history.error.message}), so the extension would keep the redemption open and check again.`
    : made.length > 0
      ? `The history read after it shows redemption ${made.map((r) => `#${r.id}`).join(', ')}: the test panelist's points were spent.`
      : `The history read after it shows no new redemption of reward #${rewardId}.`;
  const findings: Finding[] = [];
  if (answer.ok) {
    if (!history.ok || made.length > 0) {
      findings.push({
        level: 'ok',
        topic,
        text: `${sent} answered ${exchange?.status} with ${bodyQuoted(exchange)}: the extension says it went through and settles it from the history (design §5). ${ledger}`,
      });
    } else {
      findings.push({
        level: 'fail',
        topic,
        text: `${sent} answered ${exchange?.status} with ${bodyQuoted(exchange)}, but ${ledger[0]!.toLowerCase()}${ledger.slice(1)} The extension settles every redemption from the history: it keeps checking for half an hour, then says it was not found.`,
        panelists: 'their redemption “being checked”, then not found',
        change: 'List a redemption in GET /v1/panel/redemptions as soon as the redeem answers success.',
      });
    }
    return { findings, checked: true };
  }
  const { error } = answer;
  const refused = (error.kind === 'rejected' || error.kind === 'not_allowed') && made.length === 0;
  if (refused) {
    const said = hasMessage(exchange);
    findings.push(
      said
        ? {
            level: 'ok',
            topic,
            text: `${sent} was refused: ${exchange?.status} with ${bodyQuoted(exchange)}. ${ledger} The extension shows the panel's own words and, once the history confirms it, that nothing was charged.`,
          }
        : {
            level: 'warn',
            topic,
            text: `${sent} was refused: ${exchange?.status} with ${bodyQuoted(exchange)}, without a \`message\` saying why. ${ledger}`,
            panelists: error.message,
            change:
              'Give a refused redemption a `message` a panelist understands (for example how many points are missing).',
          },
    );
    return { findings, checked: true };
  }
  // The answer is unclear to the extension (design §5): the history decides, and meanwhile it says so.
  const then = !history.ok
    ? ''
    : made.length > 0
      ? ' The extension reads the history right after such an answer and finds it there, but until then shows the panelist this answer, and with a history that lags it stays “being checked” for up to half an hour.'
      : ' The extension reads the history after such an answer, finds nothing, and keeps checking for up to half an hour before saying it was not found.';
  findings.push({
    level: 'fail',
    topic,
    text: `${sent} ${answerText(error, exchange)}. ${ledger}${then}`,
    panelists: error.message,
    change:
      exchange?.status && exchange.status >= 200 && exchange.status < 300
        ? 'Answer a successful redemption with `{"message": "success"}`.'
        : exchange?.status && exchange.status >= 400 && exchange.status < 500
          ? 'Refuse a redemption only when nothing was charged, and list every charged one in the history.'
          : 'Answer a redemption with 200 and `{"message": "success"}` once it is made, or a 4xx with a `message` when it is refused.',
  });
  return { findings, checked: true };
}

function hasMessage(exchange: Exchange | undefined): boolean {
  try {
    const body = JSON.parse(exchange?.body ?? '') as { message?: unknown };
    return typeof body.message === 'string' && body.message.trim() !== '';
  } catch {
    return false;
  }
}
