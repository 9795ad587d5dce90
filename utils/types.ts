/** Domain types shared by every context. API shapes follow ../shared/seed/panel-interface.md. */
import type { RedemptionId, RewardId } from './ids';
import type { Instant } from './instants';

export interface VariableOption {
  id: number;
  name: string;
  text: string;
  exclusive: boolean;
}

export interface VariableDefinition {
  id: number;
  name: string;
  text: string;
  uuid: string;
  /** Observed `text`, `date`, `checkbox`; other choice types exist (edited as one option id). */
  type: string;
  writable: boolean;
  options: VariableOption[];
  /**
   * The panel described this question in a way the extension cannot mean (its type, whether it is
   * writable, an option: utils/api/records.ts): shown as one only the panel sets, never offered for
   * an answer, never counted as open.
   */
  unreadable?: true;
}

/**
 * A variable's value in the extension: `text` → string, `date` → `YYYY-MM-DD`,
 * single choice → one option id, `checkbox` with options → option ids. A word in a list is what
 * the panel holds for an option it no longer offers (it stored the option by its name): kept, so
 * it is shown and never dropped by a save of the others.
 */
export type VariableValue = string | number | Array<number | string>;

/** Stored answers by variable name: names are data (utils/by-name.ts), read with `named`, never `values[name]`. */
export type StoredValues = Record<string, VariableValue>;

/** Provider details; every field is optional because providers differ (wallets carry only image_url). */
export interface RewardMeta {
  utid?: string;
  terms?: string;
  brand_key?: string;
  countries?: string[];
  min_value?: string;
  max_value?: string;
  brand_name?: string;
  disclaimer?: string;
  image_urls?: Record<string, string>;
  value_type?: string;
  description?: string;
  reward_name?: string;
  reward_type?: string;
  currency_code?: string;
  short_description?: string;
  redemption_instructions?: string;
  image_url?: string;
}

export interface Reward {
  /** The panel's integer, as its exact digits (utils/ids.ts). */
  id: RewardId;
  name: string;
  /** Its value in `cost_currency`; null where the panel gave one it cannot mean (utils/api/records.ts). */
  cost: number | null;
  cost_currency: string;
  type: string;
  image_url: string;
  meta_data: RewardMeta;
  /** Points needed; null inside a redemption's nested reward. */
  reward_point_cost: number | null;
  /**
   * Quarantined: the panel gave it a cost it cannot mean (a points cost below zero, a fraction,
   * beyond 2^53 or not a number; a value that is not a number its currency can print exactly; a
   * currency that is not text: utils/api/records.ts). The reward is shown without that figure, and
   * is never offered or redeemed here.
   */
  costRefused?: true;
  /**
   * Why a reward of the available list is quarantined when its cost is not impossible but nobody
   * gave one to trust (utils/api/records.ts): `missing`, the list gives no points cost (the interface
   * says it is an integer there); `unpriced`, it gives no value in money (`cost` or `cost_currency`
   * left out); `conflicting`, the list gives its id twice with different costs (the panel would
   * charge one of them for the id sent). Absent on a quarantined reward: a cost that cannot be right.
   */
  costReason?: 'missing' | 'unpriced' | 'conflicting';
}

export interface Redemption {
  /** The panel's integer, as its exact digits (utils/ids.ts); with the reward and `created_at`, the redemption's identity. */
  id: RedemptionId;
  /** Null where the panel gave a value it cannot mean, as for a reward. */
  cost: number | null;
  currency: string;
  /** Points spent; null where the panel gave a number that is not whole points of 0 or more. */
  reward_point_cost: number | null;
  reward: Reward;
  approved: boolean;
  processed: boolean;
  /**
   * When it was made, as an instant (utils/instants.ts: the panel's spelling parsed once, UTC to the
   * second); with its id and reward, the redemption's identity.
   */
  created_at: Instant;
  updated_at: string;
  failed: boolean;
  refunded: boolean;
  partner_status: string | null;
  failed_reason: string | null;
  transaction_id: string | null;
  /** Its state flags were not booleans: its state is not guessed (utils/redemption-state.ts). */
  stateUnreadable?: true;
}

/** In order of precedence (utils/redemption-state.ts); `other` carries an unknown partner_status as it came. */
export type RedemptionStateKind = 'refunded' | 'failed' | 'complete' | 'unclaimed' | 'other' | 'approved' | 'pending';

export interface RedemptionState {
  kind: RedemptionStateKind;
  /** failed_reason for `failed`, the raw partner_status for `other`. */
  detail?: string;
}

/**
 * Where the balance was found (no documented endpoint returns it). Both with points null, and never
 * alike: `unknown`, read and found nowhere (this panel shows no balance); `unread`, not read (the
 * read that carries it failed, or it held a number that cannot be points): no evidence of any
 * balance, so never shown as "unknown", recorded, or compared as one.
 */
export type BalanceSource = 'rewards' | 'variables' | 'stored-variable' | 'unknown' | 'unread';

export interface Balance {
  points: number | null;
  source: BalanceSource;
}
