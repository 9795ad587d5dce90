/** Shapes shared by the sandbox modules and by tests that drive the sandbox. */
import type {
  Redemption as ParsedRedemption,
  Reward as ParsedReward,
  StoredValues,
  VariableDefinition,
} from '../../utils/types';

/**
 * A reward as the sandbox holds and sends it: the interface's integer id as a JSON number (the
 * extension keeps ids as their exact digits once parsed: utils/ids.ts).
 */
export type Reward = Omit<ParsedReward, 'id'> & { id: number };
/** A redemption as the sandbox holds and sends it (see {@link Reward}). */
/** A redemption as the panel holds and writes it: ids as numbers, `created_at` as the text it sends. */
export type Redemption = Omit<ParsedRedemption, 'id' | 'reward' | 'created_at'> & {
  id: number;
  reward: Reward;
  created_at: string;
};

/** How the read-variables response carries stored values (design §3 accepts both). */
export type ValuesShape = 'records' | 'map';

/** How reward and redemption ids are written (wire-ids.ts): as they are, or as a 64-bit panel's. */
export type IdsOnWire = 'numbers' | 'beyond2^53' | 'digitStrings';
export const IDS_ON_WIRE: readonly IdsOnWire[] = ['numbers', 'beyond2^53', 'digitStrings'];

/** Where the points balance is exposed (design §2 reads it from these places, in this order). */
export type BalanceIn = 'rewards' | 'variables' | 'stored-variable' | 'none';

export const VALUES_SHAPES: readonly ValuesShape[] = ['records', 'map'];
export const BALANCE_PLACES: readonly BalanceIn[] = ['rewards', 'variables', 'stored-variable', 'none'];

/** The panelist's data as the sandbox holds it; `GET /__sandbox/state` returns exactly this. */
export interface SandboxState {
  balance: number;
  rewards: Reward[];
  variables: VariableDefinition[];
  /** Stored values by variable name. */
  values: StoredValues;
  /** Oldest first, as the history endpoint answers. */
  redemptions: Redemption[];
  valuesShape: ValuesShape;
  balanceIn: BalanceIn;
  /** Whether reads carry ETag / Last-Modified and answer 304 to them (a panel without validators: false). */
  validators: boolean;
  /**
   * The API has moved: every API request is answered 301 to the same path and query under this
   * base, an absolute URL (another origin) or a path prefix here (`/api`), under which this
   * sandbox then serves it. Null: no redirect.
   */
  movedTo: string | null;
  /** How reward and redemption ids are written (wire-ids.ts). */
  idsOnWire: IdsOnWire;
  /**
   * A history that lags the balance: a redemption is in the history only this long after it was
   * made (the balance moves at once), as panels that write their ledger asynchronously do.
   */
  historyLagMs: number;
}

/** How the panel answers rather than what it holds: these a seed may leave to their defaults. */
export const RESPONSE_SWITCHES = [
  'valuesShape',
  'balanceIn',
  'validators',
  'movedTo',
  'idsOnWire',
  'historyLagMs',
] as const;

/** A seed is a state whose response-shape switches may be left to their defaults. */
export type SandboxSeed = Omit<SandboxState, (typeof RESPONSE_SWITCHES)[number]> &
  Partial<Pick<SandboxState, (typeof RESPONSE_SWITCHES)[number]>>;

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: Record<string, string>;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Parsed JSON when the body parses, the raw text when it does not, null when empty. */
  body: JsonValue;
  /** Epoch milliseconds when the request arrived. */
  at: number;
  /** A copy the `repeat` fault made: the browser's re-send, not a request of the extension. */
  repeated?: true;
}

/** A test-injected misbehaviour; see faults.ts for how rules match and expire. */
export interface FaultRule {
  method?: string;
  /** Exact path without query, e.g. "/v1/panel/rewards"; absent = any API path. */
  path?: string;
  status?: number;
  headers?: Record<string, string>;
  /** Raw text sent as is; may be malformed JSON on purpose. */
  body?: string;
  /** Wait before answering; alone, the request is then handled normally. */
  delayMs?: number;
  /**
   * Held until the test lets it through (`POST /__sandbox/release`), then handled as the rest of
   * the rule says: a request kept waiting exactly as long as the test needs, however busy the machine.
   */
  held?: boolean;
  /** How many matching requests the rule affects; default 1. */
  times?: number;
  /** Destroy the socket without answering. */
  drop?: boolean;
  /**
   * Make the real change first (after `delayMs`), then answer with the rule's status/body or
   * drop: a panel that commits and then fails to say so.
   */
  commit?: boolean;
  /**
   * Answer with the real result computed on arrival, but send it this much later: a slow way
   * back, so a read that left before a write answers with what was true before it.
   */
  holdMs?: number;
  /**
   * As `holdMs`, but the answer, computed on arrival, waits until the test lets it through
   * (`POST /__sandbox/release`): the test changes the panel between the two however busy the machine.
   */
  answerHeld?: boolean;
  /**
   * The request arrives twice, as when a browser re-sends it after its connection closed without
   * an answer: the first copy is committed and lost, the second is handled as usual (recorded with
   * `repeated`), `delayMs` after the first committed (the time the browser takes to notice the
   * closed connection). A panel that honours the `Idempotency-Key` makes one redemption of the two.
   * `'overlapping'`: the copy arrives while the first is still being processed, and is answered
   * first (409 from a panel that honours the key); the first commits after that answer left,
   * `delayMs` later.
   */
  repeat?: boolean | 'overlapping';
  /**
   * With `repeat: 'overlapping'`: the copy is answered with this status instead (a rate limit's 429
   * in front of the panel, say), whatever the key; the first copy still commits after it.
   */
  copyStatus?: number;
}

/**
 * A redemption the panel made, and which request made it: its `Idempotency-Key` (null: none sent,
 * as from the panel's own website) and whether it was a copy the browser re-sent.
 */
export interface MadeRedemption {
  id: number;
  rewardId: number;
  key: string | null;
  repeated: boolean;
  /** Epoch milliseconds (the machine's clock, not the panel's): when it was made, the instant a lagging history counts from. */
  at: number;
  /** Its `created_at` as the panel wrote it (the panel's clock): with its id and reward, the redemption. */
  createdAt: string;
}

/** What a handler decides; server.ts turns it into an HTTP response. */
export interface ApiResult {
  status: number;
  /** Serialized as JSON; undefined means no body (204). */
  body?: unknown;
  /** Sent exactly as given instead of `body` (the OAuth pages are HTML). */
  text?: string;
  /** `body`'s reward and redemption ids written in this form (wire-ids.ts); absent: as they are. */
  wireIds?: IdsOnWire;
  headers?: Record<string, string>;
}

/** A request as handlers see it: already parsed, independent of Node's stream objects. */
export interface ApiRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  /** The raw body text ('' when none). */
  rawBody: string;
  /** See RecordedRequest.body. */
  body: JsonValue;
  /** False when a non-empty body failed to parse as JSON. */
  bodyIsJson: boolean;
}
