/**
 * The profile-save write check (`--write-checks`, a test panelist only): one writable variable
 * saved with the value it already holds, through the extension's own client (design §5: a write
 * whose `message` is not `success` is an error). Then everything is read back, as a save that
 * changes nothing must leave everything as it was: every stored value (the one saved, and any
 * other the panel added, dropped or changed) and the balance. Each difference is told; the saved
 * value, if the panel changed it, is saved back.
 */
import { ENDPOINTS, type PanelClient } from '../../../utils/api/client';
import type { StoredValues, VariableDefinition, VariableValue } from '../../../utils/types';
import { attempt } from './attempt';
import { bodyQuoted } from './body';
import type { Finding } from './report-types';
import type { Wire } from './wire';
import { answerText, lastOf, pointsText, readAccount, type AccountRead, type CheckResult } from './write-common';

const TOPIC = 'Write check: a profile save';

const same = (a: VariableValue | undefined, b: VariableValue | undefined) => JSON.stringify(a) === JSON.stringify(b);
const shown = (value: VariableValue | undefined) => (value === undefined ? 'nothing' : JSON.stringify(value));

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

/** Every stored value that differs between two reads: added, removed or changed, by name. */
export function valueChanges(before: StoredValues, after: StoredValues): string[] {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].toSorted();
  return names.flatMap((name) => {
    const [was, now] = [before[name], after[name]];
    if (same(was, now)) return [];
    if (was === undefined) return [`${name} added (${shown(now)})`];
    if (now === undefined) return [`${name} removed (it held ${shown(was)})`];
    return [`${name} ${shown(was)} became ${shown(now)}`];
  });
}

export async function profileSaveCheck(
  api: PanelClient,
  wire: Wire,
  meta: VariableDefinition[],
  values: StoredValues,
  balanceVariable: string,
): Promise<CheckResult> {
  const variable = pickVariable(meta, values);
  if (!variable) {
    return {
      findings: [
        {
          level: 'info',
          topic: TOPIC,
          text: 'No writable variable holds a value for this panelist, so none could be saved unchanged: nothing was written.',
        },
      ],
      checked: false,
      why: 'no writable variable with a stored value',
    };
  }
  // Read fresh just before, so nothing another request changed meanwhile is put on the save.
  const before = await readAccount(api, balanceVariable);
  const { name } = variable;
  const value = before.values?.[name] ?? values[name]!;
  wire.allowSaves(1);
  const saved = await attempt(() => api.updateValues({ [name]: value }));
  const exchange = lastOf(wire, 'POST', ENDPOINTS.variablesData);
  const sent = `POST ${exchange?.url ?? ENDPOINTS.variablesData} {"${name}": ${JSON.stringify(value)}} (the value it already held)`;
  const findings: Finding[] = [];
  if (saved.ok) {
    findings.push({
      level: 'ok',
      topic: TOPIC,
      text: `${sent} answered ${exchange?.status} with ${bodyQuoted(exchange)}: the extension tells the panelist it is saved.`,
    });
  } else {
    const { error } = saved;
    const refused = error.kind === 'rejected' || error.kind === 'not_allowed';
    const success = exchange?.status && exchange.status >= 200 && exchange.status < 300;
    findings.push({
      level: 'fail',
      topic: TOPIC,
      text: `${sent} ${answerText(error, exchange)}. ${refused ? 'The panel refused a value it stores itself: every panelist who saves this answer unchanged is refused.' : 'After every profile save, the extension tells panelists it is not confirmed, saved or not.'}`,
      panelists: error.message,
      change: refused
        ? `Accept a save of ${name} with the value the panel itself returns for it (the formats of design §4).`
        : success
          ? 'Answer a successful profile save with `{"message": "success"}`.'
          : 'Answer a profile save with 200 and `{"message": "success"}` once it is stored.',
    });
  }
  const back = await readBack(api, wire, { name, value, before, balanceVariable });
  const unchanged = `Read back, ${name}, every other answer and the balance are unchanged.`;
  // Unchanged, as it should be: said with the save's own finding when that one is fine.
  const [first] = findings;
  if (back.length === 0 && first?.level === 'ok') findings[0] = { ...first, text: `${first.text} ${unchanged}` };
  else findings.push(...(back.length ? back : [{ level: 'info', topic: TOPIC, text: unchanged } as const]));
  return { findings, checked: exchange !== undefined && exchange.status !== null };
}

interface Saved {
  name: string;
  value: VariableValue;
  before: AccountRead;
  balanceVariable: string;
}

/**
 * After the save: every stored value and the balance read back and compared, each difference a
 * finding (none: nothing changed); the saved value put back if it changed.
 */
async function readBack(api: PanelClient, wire: Wire, saved: Saved): Promise<Finding[]> {
  const { name, value, before, balanceVariable } = saved;
  const after = await readAccount(api, balanceVariable);
  if (after.values === null || before.values === null) {
    return [
      {
        level: 'warn',
        topic: TOPIC,
        text: `The profile could not be read back after the save (${after.failed ?? before.failed}), so the doctor cannot say the save changed nothing.`,
        panelists: after.failed ?? before.failed ?? '',
        change: `Check the test panelist's profile and balance by hand: ${name} should still be ${JSON.stringify(value)}.`,
      },
    ];
  }
  const findings: Finding[] = [];
  let now = after;
  if (!same(after.values[name], value)) {
    wire.allowSaves(1);
    const restored = await attempt(() => api.updateValues({ [name]: value }));
    now = restored.ok ? await readAccount(api, balanceVariable) : after;
    const back = now.values !== null && same(now.values[name], value);
    findings.push({
      level: 'fail',
      topic: TOPIC,
      text: `Saving ${name} unchanged changed it: ${JSON.stringify(value)} became ${JSON.stringify(after.values[name] ?? null)}. ${back ? 'The doctor saved the old value again, and it is back.' : `The doctor could not put it back: set ${name} of the test panelist to ${JSON.stringify(value)} by hand.`}`,
      panelists: 'their answer changed after saving it unchanged',
      change: `Store a saved value as it was sent, and return it in the same format from GET ${ENDPOINTS.variablesData} (design §3, §4).`,
    });
  }
  const others = valueChanges(before.values, after.values).filter((line) => !line.startsWith(`${name} `));
  if (others.length > 0)
    findings.push({
      level: 'fail',
      topic: TOPIC,
      text: `Saving ${name} unchanged also changed the other answers: ${others.join('; ')}. The doctor does not undo these: put them back by hand.`,
      panelists: 'answers in their profile they never gave, or lost, after saving another one',
      change: 'Store only the variables a save sends, as they were sent; derive nothing else from a save.',
    });
  findings.push(...balanceFindings(before.balance, after.balance, now.balance, name));
  return findings;
}

function balanceFindings(before: number | null, after: number | null, now: number | null, name: string): Finding[] {
  if (before === after) return [];
  const later = now !== after ? ` (${pointsText(now)} after the doctor's save to put ${name} back)` : '';
  return [
    {
      level: 'fail',
      topic: TOPIC,
      text: `The balance went from ${pointsText(before)} to ${pointsText(after)} with a profile save that changed nothing${later}.`,
      panelists:
        'points that come or go when they save their profile: saving the same answer again and again would move their balance',
      change: 'A save that changes nothing must change nothing: award points for an answer once, not for each save.',
    },
  ];
}
