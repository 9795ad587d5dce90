/**
 * What the data itself holds that the extension shows differently than a panel might expect,
 * judged with the extension's own formats (design §4, §6, §7, §8).
 */
import type { ReadName, Reads } from '../../../utils/api/client';
import { parseApiTimestamp } from '../../../utils/format';
import type { Finding } from './report-types';

/** Partner states the interface document shows; others are shown as they come (design §6). */
const KNOWN_PARTNER_STATES = new Set(['COMPLETE', 'UNCLAIMED']);
/** Types the editor knows without options (design §4); another type without options is edited as text. */
const FREE_FORM_TYPES = new Set(['text', 'date']);

function validCurrency(code: string): boolean {
  try {
    new Intl.NumberFormat('en', { style: 'currency', currency: code });
    return true;
  } catch {
    return false;
  }
}

const list = (names: string[]) =>
  names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', ');

export function contentFindings(data: Partial<{ [K in ReadName]: Reads[K] }>): Finding[] {
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
    // Each record is read on its own (utils/api/records.ts): one the extension cannot mean is quarantined, not the list.
    const refused = rewards.filter((r) => r.costRefused).map((r) => `#${r.id} ${r.name}`);
    if (refused.length)
      findings.push({
        level: 'warn',
        topic: 'Rewards',
        text: `${refused.length} with a cost the extension cannot mean (${list(refused)}): a reward_point_cost that is not whole points of 0 or more, a cost that is not a number its currency prints exactly, or a cost_currency that is not text. Each is shown without that figure and can never be redeemed.`,
        panelists:
          'these rewards without their cost, each with Redeem off and "the panel gave it a cost that cannot be right"',
        change:
          'Give each reward a whole reward_point_cost of 0 or more, its cost as a number of its currency, and cost_currency as an ISO 4217 code.',
      });
    const costless = rewards.filter((r) => r.reward_point_cost === null && !r.costRefused).map((r) => r.name);
    if (costless.length)
      findings.push({
        level: 'warn',
        topic: 'Rewards',
        text: `${costless.length} without reward_point_cost (${list(costless)}): listed last, never compared with the balance.`,
        panelists: 'these rewards at the end of the list, without a points cost or how far they are from it',
        change: 'Give each reward its reward_point_cost in the rewards list.',
      });
    const currencies = [...new Set(rewards.map((r) => r.cost_currency).filter((c) => c !== '' && !validCurrency(c)))];
    if (currencies.length)
      findings.push({
        level: 'info',
        topic: 'Rewards',
        text: `Currency codes Intl does not know (${list(currencies)}): amounts are shown with the code after them (design §8).`,
      });
  }
  const redemptions = data.redemptions;
  if (redemptions) {
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
  }
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
