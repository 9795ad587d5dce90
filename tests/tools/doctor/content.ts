/**
 * What the data itself holds that the extension shows differently than a panel might expect,
 * judged with the extension's own rules: the records it quarantines, each on its own
 * (utils/api/records.ts), the money it shows (utils/format.ts, formatMoney), and its formats
 * (design §3, §4, §6, §7, §8).
 * Each problem says what is wrong, what the extension does with it, and how to fix it.
 */
import type { ReadName, Reads } from '../../../utils/api/client';
import { checkedPointCost } from '../../../utils/api/records';
import { formatMoney, isMoneyAmount, parseApiTimestamp } from '../../../utils/format';
import { t } from '../../../utils/i18n';
import type { Reward } from '../../../utils/types';
import { costProblem, priceMissing, priceProblem } from './costs';
import type { Finding } from './report-types';

/** Partner states the interface document shows; others are shown as they come (design §6). */
const KNOWN_PARTNER_STATES = new Set(['COMPLETE', 'UNCLAIMED']);
/** Types the editor knows without options (design §4); another type without options is edited as text. */
const FREE_FORM_TYPES = new Set(['text', 'date']);

const list = (names: string[]) =>
  names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', ');
const named = (r: Reward) => `#${r.id} “${r.name}”`;
const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Points costs: quarantined ones, missing ones, and free ones, each its own finding. */
function costFindings(rewards: Reward[], raw: Map<number, Record<string, unknown>>): Finding[] {
  const findings: Finding[] = [];
  const refused = rewards.filter(
    (r) => r.costRefused && !r.costReason && checkedPointCost(raw.get(Number(r.id))?.reward_point_cost).costRefused,
  );
  if (refused.length)
    findings.push({
      level: 'warn',
      topic: 'Rewards',
      text: `${count(refused.length, 'reward has', 'rewards have')} a reward_point_cost the extension cannot take: ${list(refused.map((r) => `${named(r)} ${costProblem(raw.get(Number(r.id))?.reward_point_cost)}`))}. The extension quarantines each: listed without a points cost, marked “${t('costRefused')}”, with no Redeem, and its background refuses to send a redemption of it.`,
      panelists: 'these rewards, and no way to redeem them',
      change:
        'Give each reward_point_cost as a whole number of points, 0 or more, written as a JSON number (1650, not "1650").',
    });
  const rawPrice = (r: Reward) => [raw.get(Number(r.id))?.cost, raw.get(Number(r.id))?.cost_currency] as const;
  const badPrices = rewards.filter((r) => {
    const [cost, currency] = rawPrice(r);
    return r.costRefused && !r.costReason && !(typeof currency === 'string' && isMoneyAmount(cost, currency));
  });
  const priceChange =
    'Give cost as the face value, a JSON number of 0 or more, and cost_currency as an ISO 4217 code in capitals (USD, EUR, GBP).';
  if (badPrices.length)
    findings.push({
      level: 'warn',
      topic: 'Rewards',
      text: `${count(badPrices.length, 'reward has a price', 'rewards have prices')} the extension cannot take: ${list(badPrices.map((r) => `${named(r)} ${priceProblem(...rawPrice(r))}`))}. The extension quarantines each: listed without a price, marked “${t('costRefused')}”, with no Redeem, and its background refuses to send a redemption of it.`,
      panelists: 'these rewards, and no way to redeem them',
      change: priceChange,
    });
  const unpriced = rewards.filter((r) => r.costReason === 'unpriced');
  if (unpriced.length)
    findings.push({
      level: 'warn',
      topic: 'Rewards',
      text: `${count(unpriced.length, 'reward has', 'rewards have')} no value in money (${list(unpriced.map((r) => `${named(r)} ${priceMissing(...rawPrice(r))}`))}): the extension quarantines each: marked “${t('costUnpriced')}”, with no Redeem, and its background refuses to send a redemption of it.`,
      panelists: 'these rewards, and no way to redeem them',
      change: priceChange,
    });
  const costless = rewards.filter((r) => r.costReason === 'missing');
  if (costless.length)
    findings.push({
      level: 'warn',
      topic: 'Rewards',
      text: `${count(costless.length, 'reward has', 'rewards have')} no reward_point_cost (${list(costless.map(named))}): the extension quarantines each: listed without a points cost, marked “${t('costMissing')}”, with no Redeem, and its background refuses to send a redemption of it.`,
      panelists: 'these rewards, and no way to redeem them',
      change: 'Give each reward its reward_point_cost in the rewards list, as the interface says: an integer.',
    });
  const twice = [...new Set(rewards.filter((r) => r.costReason === 'conflicting').map((r) => r.id))];
  if (twice.length)
    findings.push({
      level: 'warn',
      topic: 'Rewards',
      text: `${count(twice.length, 'reward id is', 'reward ids are')} listed twice with different reward_point_costs (${list(twice.map((id) => `#${id}`))}): the extension quarantines every record of each, marked “${t('costConflicting')}”, with no Redeem, since the panel would charge one of the costs for the id sent.`,
      panelists: 'these rewards, and no way to redeem them',
      change: 'List each reward id once, or give every record of it the same reward_point_cost.',
    });
  const free = rewards.filter((r) => r.reward_point_cost === 0);
  if (free.length)
    findings.push({
      level: 'warn',
      topic: 'Rewards',
      text: `${count(free.length, 'reward costs', 'rewards cost')} 0 points (${list(free.map(named))}): the extension offers ${free.length === 1 ? 'it' : 'them'} as free, with Redeem enabled for every panelist, even one with no points.`,
      panelists: 'these rewards free for the taking',
      change:
        'If they are not meant to be free, give each its reward_point_cost; if they are, nothing needs to change.',
    });
  return findings;
}

/**
 * Money values the extension does not show though it takes the reward: a currency that is not an
 * ISO 4217 code (a price it cannot take at all quarantines the reward: costFindings says so).
 */
function moneyFindings(rewards: Reward[], raw: Map<number, Record<string, unknown>>): Finding[] {
  const taken = (r: Reward) => {
    const { cost, cost_currency: currency } = raw.get(Number(r.id)) ?? {};
    return typeof currency === 'string' && isMoneyAmount(cost, currency);
  };
  const unshown = rewards.filter((r) => taken(r) && formatMoney(r.cost, r.cost_currency, 'en') === null);
  if (unshown.length === 0) return [];
  const why = (r: Reward) =>
    /^[a-z]{3}$/.test(r.cost_currency) && formatMoney(r.cost, r.cost_currency.toUpperCase(), 'en') !== null
      ? `cost_currency ${JSON.stringify(r.cost_currency)} (lower case)`
      : `cost_currency ${JSON.stringify(r.cost_currency)} (not an ISO 4217 code)`;
  return [
    {
      level: 'warn',
      topic: 'Rewards',
      text: `${count(unshown.length, 'reward has a money value', 'rewards have money values')} the extension does not show: ${list(unshown.map((r) => `${named(r)} ${why(r)}`))}. It shows their points alone, never a price it cannot trust (design §8).`,
      panelists: 'these rewards without their value in money',
      change:
        'Give cost as the face value, 0 or more, and cost_currency as an ISO 4217 code in capitals (USD, EUR, GBP).',
    },
  ];
}

export function contentFindings(
  data: Partial<{ [K in ReadName]: Reads[K] }>,
  raw: Map<number, Record<string, unknown>>,
): Finding[] {
  const findings: Finding[] = [];
  const rewards = data.rewards?.rewards;
  if (rewards) {
    if (rewards.length === 0)
      findings.push({
        level: 'warn',
        topic: 'Rewards',
        text: 'The catalogue is empty: the popup has no reward to show this panelist.',
        panelists: 'their points and no reward to spend them on',
        change: 'Enable rewards for this panel (or check that the test panelist is one who should see them).',
      });
    findings.push(...costFindings(rewards, raw), ...moneyFindings(rewards, raw));
  }
  if (data.redemptions) findings.push(...redemptionFindings(data.redemptions));
  const variables = data.variablesMeta;
  if (variables) {
    const unreadable = variables.filter((v) => v.unreadable).map((v) => v.name);
    if (unreadable.length)
      findings.push({
        level: 'warn',
        topic: 'Profile variables',
        text: `${unreadable.length} of a shape the extension cannot mean (${list(unreadable)}): an id that is not an integer, a type that is not text, writable that is not true or false, or an option without an integer id. Each is shown as one only the panel sets, never offered for an answer.`,
        panelists: 'these questions without a way to answer them, saying to answer them on the panel’s website',
        change:
          'Send each variable as the interface describes it: integer id, type as text, writable as a boolean, options with integer ids.',
      });
    const asText = variables
      .filter((v) => v.writable && v.options.length === 0 && !FREE_FORM_TYPES.has(v.type))
      .map((v) => `${v.name} (${v.type})`);
    if (asText.length)
      findings.push({
        level: 'info',
        topic: 'Profile variables',
        text: `Writable types without options the editor does not know (${list(asText)}): edited as text (design §4).`,
      });
    if (!variables.some((v) => v.writable))
      findings.push({
        level: 'info',
        topic: 'Profile variables',
        text: 'None is writable: the profile editor only shows answers.',
      });
  }
  return findings;
}

function redemptionFindings(redemptions: Reads['redemptions']): Finding[] {
  const findings: Finding[] = [];
  const unreadable = redemptions
    .filter((r) => parseApiTimestamp(r.created_at) === null)
    .map((r) => `#${r.id} "${r.created_at}"`);
  if (unreadable.length)
    findings.push({
      level: 'warn',
      topic: 'Redemptions',
      text: `Timestamps that are not YYYY-MM-DDTHH:MM:SS (${list(unreadable)}): shown as the panel wrote them, not in the panelist's format (design §7).`,
      panelists: 'these dates exactly as the panel wrote them, not in their own date format',
      change: 'Write created_at and updated_at as YYYY-MM-DDTHH:MM:SS (UTC).',
    });
  const pointless = redemptions.filter((r) => r.reward_point_cost === null).map((r) => `#${r.id}`);
  if (pointless.length)
    findings.push({
      level: 'warn',
      topic: 'Redemptions',
      text: `${pointless.length} whose reward_point_cost is not whole points of 0 or more (${list(pointless)}): shown without the points spent, and counted in no total.`,
      panelists: 'these redemptions without how many points they took',
      change: 'Give each redemption the points it spent as reward_point_cost, a whole number of 0 or more.',
    });
  const unread = redemptions.filter((r) => r.stateUnreadable).map((r) => `#${r.id}`);
  if (unread.length)
    findings.push({
      level: 'warn',
      topic: 'Redemptions',
      text: `${unread.length} whose approved, processed, failed or refunded is not true or false (${list(unread)}): their state is not guessed; each reads "Status" (or its partner_status) and is checked again on each refresh.`,
      panelists: 'these redemptions without their state',
      change: 'Send approved, processed, failed and refunded as JSON booleans.',
    });
  const states = [
    ...new Set(
      redemptions
        .map((r) => r.partner_status?.trim().toUpperCase())
        .filter((s): s is string => !!s && !KNOWN_PARTNER_STATES.has(s)),
    ),
  ];
  if (states.length)
    findings.push({
      level: 'info',
      topic: 'Redemptions',
      text: `partner_status values beyond COMPLETE and UNCLAIMED (${list(states)}): shown as they come, and such a redemption is checked again on each refresh (design §6).`,
    });
  return findings;
}

/** Design §3: which of the two accepted shapes `data` has, and which keys the records use. */
export function storedShapeFinding(body: unknown): Finding {
  const data = (body as { data?: unknown }).data;
  const topic = 'Stored values (design §3)';
  if (!Array.isArray(data))
    return {
      level: 'ok',
      topic,
      text: `a map of variable name → value (${Object.keys(data as object).length} values).`,
    };
  const used = (keys: readonly string[]) =>
    [...new Set(data.map((r) => keys.find((k) => k in (r as object))).filter(Boolean))]
      .map((k) => `\`${k}\``)
      .join(', ');
  return {
    level: 'ok',
    topic,
    text: `a list of ${data.length} records, naming the variable in ${used(['name', 'variable_name', 'var_name']) || 'nothing'} and the value in ${used(['value', 'values']) || 'nothing'}.`,
  };
}
