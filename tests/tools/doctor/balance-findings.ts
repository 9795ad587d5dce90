/**
 * Where the balance comes from (design §2), in the extension's order, judged with its own rules
 * (utils/balance.ts), and whether the build's balanceVariable exists on this panel.
 */
import type { ReadName, Reads } from '../../../utils/api/client';
import { BALANCE_FIELDS, balanceFromBody, resolveBalance, toPoints } from '../../../utils/balance';
import type { Finding } from './report-types';

/** Design §2: where the balance comes from, in the extension's order, and whether balanceVariable exists. */
export function balanceFindings(
  variable: string,
  bodies: Partial<Record<ReadName, unknown>>,
  values: Reads['variablesData']['values'],
  defined: string[],
): { findings: Finding[]; points: number | null } {
  const impossible = impossibleBalance(bodies);
  if (impossible) return { findings: [impossible], points: null };
  const fieldIn = (body: unknown) =>
    BALANCE_FIELDS.find((f) => toPoints((body as Record<string, unknown> | null)?.[f]) !== null);
  const rewardsField = fieldIn(bodies.rewards);
  const variablesField = fieldIn(bodies.variablesData);
  const points = (body: unknown, field: string | undefined) =>
    field ? toPoints((body as Record<string, unknown>)[field]) : null;
  const balance = resolveBalance({
    rewards: points(bodies.rewards, rewardsField),
    variables: points(bodies.variablesData, variablesField),
    stored: values,
    variableName: variable,
  });
  const shown = balance.points === null ? '' : `${balance.points.toLocaleString('en')} points`;
  const where = {
    rewards: `the rewards response's top-level \`${rewardsField}\` (the first place the extension looks)`,
    variables: `the read-variables response's top-level \`${variablesField}\` (the second place)`,
    'stored-variable': `the stored variable ${variable} (the third place, balanceVariable)`,
    unknown: '',
    // resolveBalance never answers unread: that is a read that failed, which the doctor reports apart.
    unread: '',
  }[balance.source];
  const findings: Finding[] = [
    balance.points === null
      ? {
          level: 'warn',
          topic: 'Balance (design §2)',
          text: `not found: neither response has a top-level ${BALANCE_FIELDS.map((f) => `\`${f}\``).join(', ')} in whole points, and the stored variable ${variable} holds none. The popup shows costs with the balance "unknown"; the panel still decides each redemption.`,
          panelists: 'costs without their own balance, so not which rewards they can afford',
          change: `Put the balance in a top-level \`points\` of the rewards answer, or set balanceVariable to the stored variable that holds it.`,
        }
      : { level: 'ok', topic: 'Balance (design §2)', text: `${shown}, from ${where}.` },
  ];
  // A string of digits is read as points, where a reward's cost written so is quarantined: said, so the two agree.
  const field = { rewards: rewardsField, variables: variablesField }[balance.source as 'rewards' | 'variables'];
  const raw = field
    ? (bodies[balance.source === 'rewards' ? 'rewards' : 'variablesData'] as Record<string, unknown>)[field]
    : undefined;
  if (typeof raw === 'string')
    findings.push({
      level: 'warn',
      topic: 'Balance (design §2)',
      text: `\`${field}\` is sent as a string (${JSON.stringify(raw)}), not a JSON number. The extension reads a string of digits as the balance, but quarantines a reward whose reward_point_cost is written that way: a panel that writes one number as text likely writes others so.`,
      panelists: `${shown} today; a reward whose cost is written the same way cannot be redeemed`,
      change: `Send \`${field}\` as a JSON number (${raw.trim()}, not ${JSON.stringify(raw)}), as every points value must be.`,
    });
  const both = [points(bodies.rewards, rewardsField), points(bodies.variablesData, variablesField)];
  if (both[0] !== null && both[1] !== null && both[0] !== both[1]) {
    findings.push({
      level: 'warn',
      topic: 'Balance (design §2)',
      text: `The rewards response says ${both[0]} and the read-variables response ${both[1]}: the extension shows the first.`,
      panelists: `${both[0]} points`,
      change: 'Give the same balance in both answers, or in one only.',
    });
  }
  const isDefined = defined.includes(variable);
  const isStored = Object.hasOwn(values, variable);
  const topic = `balanceVariable ${variable}`;
  if (balance.source === 'stored-variable') findings.push({ level: 'ok', topic, text: `stored, holding ${shown}.` });
  // Information only: when no balance is found, the Balance finding above is the one problem.
  else if (isStored)
    findings.push({
      level: 'info',
      topic,
      text: `stored, but its value ${JSON.stringify(values[variable])} is not whole points (design §8).`,
    });
  else {
    const candidates = Object.entries(values)
      .filter(([name, value]) => /POINT|BALANCE|CREDIT/i.test(name) && toPoints(value) !== null)
      .map(([name]) => name);
    const hint = candidates.length
      ? ` Stored variables that look like it: ${candidates.join(', ')} (set balanceVariable to one).`
      : '';
    findings.push({
      level: 'info',
      topic,
      text: `${isDefined ? 'defined in /variables/meta but not stored for this panelist' : 'not on this panel (not in /variables/meta, not stored)'}${balance.source === 'unknown' ? '.' : `; not needed while ${where.split(' (')[0]} carries the balance.`}${hint}`,
    });
  }
  return { findings, points: balance.points };
}

/**
 * A balance field holding a number that cannot be points, where the extension meets it (the rewards
 * answer, else the values answer): the popup then shows the rewards and says the balance could not
 * be read, and no later place stands in for it.
 */
function impossibleBalance(bodies: Partial<Record<ReadName, unknown>>): Finding | null {
  const inRewards = balanceFromBody(bodies.rewards);
  const [found, endpoint, body] =
    'impossible' in inRewards || inRewards.points !== null
      ? [inRewards, 'the rewards response', bodies.rewards]
      : [balanceFromBody(bodies.variablesData), 'the read-variables response', bodies.variablesData];
  if (!('impossible' in found)) return null;
  const raw = JSON.stringify((body as Record<string, unknown>)[found.impossible]);
  return {
    level: 'warn',
    topic: 'Balance (design §2)',
    text: `${endpoint}'s top-level \`${found.impossible}\` holds ${raw}, which is no points balance (a whole number, 0 or more). The extension shows the rewards and says the balance could not be read; no other place stands in for it.`,
    panelists: 'their rewards, with "Your balance could not be read" instead of their points',
    change: `Send \`${found.impossible}\` as whole points, 0 or more.`,
  };
}
