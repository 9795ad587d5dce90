/**
 * Generators of hostile panel API responses for the property-based client test:
 * valid bodies, valid bodies with one field mutated, wrong types, nulls, huge strings and arrays,
 * deeply nested junk, non-JSON text and empty bodies, under varied status codes and headers.
 *
 * Everything here is plain data: a {@link HostileResponse} is what the sandbox is told to answer
 * (a fault rule), and its `family` lets the test hold each family to what it must produce.
 */
import fc from 'fast-check';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export const ENDPOINT_NAMES = [
  'listVariables',
  'readValues',
  'updateValues',
  'deleteValue',
  'listRedemptions',
  'listRewards',
  'redeem',
] as const;
export type EndpointName = (typeof ENDPOINT_NAMES)[number];

export const WRITE_ENDPOINTS: readonly EndpointName[] = ['updateValues', 'deleteValue', 'redeem'];

export type Family =
  /** The documented shape (for a write: `{ message: "success" }` in any case and spacing). */
  | 'valid'
  /** The documented shape with thousands of list entries. */
  | 'valid-huge'
  /** A valid body with one field (or the whole body) deleted, nulled or replaced by junk. */
  | 'mutated'
  /** A write answered with a well-formed body whose message is not `success`. */
  | 'refusal'
  /** A JSON scalar, list or random JSON value where an object was expected. */
  | 'wrong-type'
  | 'huge-string'
  | 'huge-array'
  | 'nested'
  /** Text that is not strict JSON (checked). */
  | 'non-json'
  | 'empty'
  /** An error-style body: `message`, `error`, `field` and Laravel's `errors` of any type, often carrying the token. */
  | 'error-body';

export const FAMILIES: readonly Family[] = [
  'valid',
  'valid-huge',
  'mutated',
  'refusal',
  'wrong-type',
  'huge-string',
  'huge-array',
  'nested',
  'non-json',
  'empty',
  'error-body',
];

export const STATUSES = [200, 204, 307, 400, 401, 403, 404, 422, 429, 500, 503] as const;

export interface HostileResponse {
  family: Family;
  status: number;
  /** Raw text the sandbox sends as is (nothing at all for 204). */
  body: string;
  headers: Record<string, string>;
  /** The sandbox destroys the socket instead of answering. */
  drop: boolean;
}

/** Whether `text` is strict JSON as a fetch client sees it (a leading BOM is stripped by decoding). */
export function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text.replace(/^\uFEFF/, ''));
    return true;
  } catch {
    return false;
  }
}

/** Sets an own enumerable property, even `__proto__`, as JSON.parse would. */
function defineOwn(target: Record<string, Json>, key: string, value: Json): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

// ---------------------------------------------------------------------------------------------
// Building blocks

/** Strings that carry the token: alone, inside text, and straddling the cuts at 200 and 300 chars. */
function tokenText(token: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(token) },
    { weight: 1, arbitrary: fc.constant(`Bearer ${token}`) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 }))
        .map(([a, b]) => `${a}${token}${b}`),
    },
    // Placed to straddle the cuts a message gets: the client quotes at most 200 characters of a
    // write's non-success message and passes on at most 300 of an error's, after collapsing
    // whitespace (the second filler shrinks from 4 to 2 characters a repeat when collapsed).
    {
      weight: 3,
      arbitrary: fc
        .oneof(fc.integer({ min: 176, max: 196 }), fc.integer({ min: 275, max: 295 }))
        .map((k) => `${'x'.repeat(k)}${token} trailing words`),
    },
    {
      weight: 3,
      arbitrary: fc
        .oneof(fc.integer({ min: 87, max: 98 }), fc.integer({ min: 137, max: 147 }))
        .map((k) => `${'a \n '.repeat(k)}${token}`),
    },
  );
}

function text(token: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ maxLength: 24 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 16 }) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '',
        ' ',
        '\u200b',
        'success',
        'SUCCESS',
        'null',
        '0',
        '__proto__',
        'constructor',
        '<script>alert(1)</script>',
        '<img src=x onerror=alert(1)>',
        'javascript:alert(1)',
        '\u0000\u0001',
        'é☃𝄞',
        '\ud800',
        '%s%n',
        '${token}',
      ),
    },
    { weight: 1, arbitrary: tokenText(token) },
  );
}

function nonEmptyText(token: string): fc.Arbitrary<string> {
  return text(token).filter((s) => s.length > 0);
}

const integer: fc.Arbitrary<number> = fc.oneof(
  { weight: 4, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.constantFrom(0, 1, 2 ** 31, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1e21) },
);
/**
 * A reward's or redemption's id as a panel may send it (utils/ids.ts): a safe integer, or the
 * digits of a 64-bit one as a string. (1e21 is no id: a number beyond 2^53 has lost its digits.)
 */
const exactId: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.constantFrom(0, 1, 2 ** 31, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER) },
  { weight: 1, arbitrary: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(String) },
);

/** Any finite double (JSON has no NaN or Infinity). */
const finite: fc.Arbitrary<number> = fc.oneof(integer, fc.double({ noNaN: true, noDefaultInfinity: true }));

function maybe<T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | null> {
  return fc.option(arb, { nil: null, freq: 4 });
}

/** Small JSON junk of every type. */
function junk(token: string): fc.Arbitrary<Json> {
  return fc.oneof(
    fc.constant(null),
    fc.boolean(),
    finite,
    fc.constantFrom(1.5, -1, -0.5, 1e308, '1', '', 'true', '2500'),
    text(token),
    fc.constant<Json>([]),
    fc.constant<Json>({}),
    fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
  );
}

/**
 * A string of at least 100,000 characters: a unit repeated whole, so that the token, when it is the
 * unit, is never cut (every body carries the token whole or not at all: a piece of it in a message
 * can only come from the client's own cutting).
 */
function hugeString(token: string): fc.Arbitrary<string> {
  const unit = fc.oneof(
    fc.string({ minLength: 1, maxLength: 10 }),
    fc.constantFrom('é☃𝄞', '"\\', '<b>x</b>', ' \n\t', `${token} `, 'A'),
  );
  return fc.tuple(unit, fc.integer({ min: 100_000, max: 120_000 })).map(([u, n]) => u.repeat(Math.ceil(n / u.length)));
}

/** An array of 1,000 to 6,000 small junk elements. */
function hugeArray(): fc.Arbitrary<Json[]> {
  const elements: Json[][] = [
    [0],
    [null],
    ['x'],
    [{}],
    [[]],
    [true],
    [0, 'x', null, {}, [], false, 1.5],
    [{ id: 'x' }, { id: 1 }],
  ];
  return fc
    .tuple(fc.constantFrom(...elements), fc.integer({ min: 1000, max: 6000 }))
    .map(([cycle, n]) => Array.from({ length: n }, (_, i) => cycle[i % cycle.length] as Json));
}

/** Raw JSON text standing in for a value, for values too deep for JSON.stringify's recursion. */
const rawJson = new WeakMap<object, string>();

function rawValue(jsonText: string): Json {
  const holder: Record<string, Json> = {};
  rawJson.set(holder, jsonText);
  return holder;
}

/** JSON.stringify, with the raw text of every {@link rawValue} spliced in where it stands. */
export function toJsonText(value: Json): string {
  const texts: string[] = [];
  const out = JSON.stringify(value, (_key, v: unknown) => {
    const raw = typeof v === 'object' && v !== null ? rawJson.get(v) : undefined;
    return raw === undefined ? v : `\u0000raw${texts.push(raw) - 1}\u0000`;
  });
  return out.replace(/"\\u0000raw(\d+)\\u0000"/g, (_match, i: string) => texts[Number(i)] ?? 'null');
}

/** A value nested 100 to 20,000 levels deep in arrays, objects or both (built as text). */
function deepValue(token: string): fc.Arbitrary<Json> {
  return fc
    .tuple(fc.integer({ min: 100, max: 20_000 }), fc.constantFrom('array', 'object', 'mixed'), junk(token))
    .map(([depth, how, leaf]) => {
      const opens: string[] = [];
      const closes: string[] = [];
      for (let i = 0; i < depth; i += 1) {
        const asArray = how === 'array' || (how === 'mixed' && i % 2 === 0);
        opens.push(asArray ? '[' : '{"id":');
        closes.push(asArray ? ']' : '}');
      }
      return rawValue(`${opens.join('')}${JSON.stringify(leaf)}${closes.reverse().join('')}`);
    });
}

/** Deep nesting as raw text, closed or not. */
function deepText(): fc.Arbitrary<string> {
  return fc.tuple(fc.integer({ min: 100, max: 20_000 }), fc.boolean(), fc.boolean()).map(([depth, arrays, closed]) => {
    const open = arrays ? '[' : '{"a":';
    const close = arrays ? ']' : '}';
    return `${open.repeat(depth)}1${close.repeat(closed ? depth : depth - 1)}`;
  });
}

/** What replaces a field in a mutated body: wrong types, nulls, huge and deep values. */
function replacement(token: string): fc.Arbitrary<Json> {
  return fc.oneof(
    { weight: 6, arbitrary: junk(token) },
    { weight: 1, arbitrary: hugeString(token) },
    { weight: 1, arbitrary: hugeArray() },
    { weight: 1, arbitrary: deepValue(token) },
  );
}

// ---------------------------------------------------------------------------------------------
// Valid bodies, per endpoint

/**
 * Top-level balance fields (design §2): points, digit strings or junk that is not sent as a number;
 * all optional. A number that is not points (-1, 1.5, "2.5") makes the answer one the client refuses
 *, so it is no part of a valid body; mutated bodies still carry such numbers.
 */
function balanceFields(token: string): fc.Arbitrary<Record<string, Json>> {
  const numeric = (value: Json) =>
    typeof value === 'number' ||
    (typeof value === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i.test(value));
  const points = fc.oneof(
    fc.nat(),
    fc.nat().map(String),
    junk(token).filter((value) => !numeric(value)),
  );
  return fc.record(
    { points, balance: points, points_balance: points, reward_points: points },
    { requiredKeys: [] },
  ) as fc.Arbitrary<Record<string, Json>>;
}

/**
 * A defect of one record that the interface cannot mean (utils/api/records.ts): mostly the documented
 * value, sometimes one of these. Such a record is quarantined by itself, so a body holding it is
 * still a valid answer that must resolve.
 */
function sometimes<T extends Json>(documented: fc.Arbitrary<T>, ...defects: Json[]): fc.Arbitrary<Json> {
  return fc.oneof({ weight: 6, arbitrary: documented }, { weight: 1, arbitrary: fc.constantFrom(...defects) });
}

function variableDefinition(token: string): fc.Arbitrary<Json> {
  const option = fc.record(
    {
      id: sometimes(integer, 'x', 1.5),
      name: text(token),
      text: text(token),
      exclusive: maybe(sometimes(fc.boolean(), 'no')),
    },
    { requiredKeys: ['id'] },
  );
  return fc.record(
    {
      id: sometimes(integer, '13', null),
      name: fc.oneof(nonEmptyText(token), fc.constantFrom('__proto__', 'constructor', 'toString')),
      text: text(token),
      uuid: maybe(text(token)),
      type: sometimes(fc.oneof(fc.constantFrom('text', 'date', 'radio', 'select', 'checkbox'), text(token)), 5, null),
      writable: sometimes(fc.boolean(), 'yes', null, 1),
      options: maybe(fc.array(option, { maxLength: 4 })),
      extra: junk(token),
    },
    { requiredKeys: ['id', 'name', 'type', 'writable'] },
  ) as fc.Arbitrary<Json>;
}

function rewardMeta(token: string): fc.Arbitrary<Json> {
  // Every meta field is optional and lenient: a field of the wrong type is dropped, not fatal.
  const str = fc.oneof({ weight: 3, arbitrary: text(token) }, { weight: 1, arbitrary: junk(token) });
  return fc.record(
    {
      utid: str,
      terms: fc.oneof(str, fc.constant('<p onclick="x()">Terms</p><script>alert(1)</script>')),
      brand_key: str,
      countries: fc.oneof(fc.array(text(token), { maxLength: 3 }), junk(token)),
      min_value: str,
      max_value: str,
      brand_name: str,
      disclaimer: str,
      image_urls: fc.oneof(fc.dictionary(text(token), text(token), { maxKeys: 3 }), junk(token)),
      value_type: str,
      description: str,
      reward_name: str,
      reward_type: str,
      currency_code: str,
      short_description: str,
      redemption_instructions: str,
      image_url: str,
    },
    { requiredKeys: [] },
  ) as fc.Arbitrary<Json>;
}

function reward(token: string): fc.Arbitrary<Json> {
  return fc.record(
    {
      id: exactId,
      name: sometimes(text(token), null, 5),
      // A value nothing can print exactly, or none at all: that reward is quarantined, not the list.
      cost: sometimes(finite, null, [5], '5.00', 1e308, -5),
      cost_currency: sometimes(text(token), 840, null, ['USD']),
      type: sometimes(fc.oneof(fc.constantFrom('giftcard_aggregator', 'custom'), text(token)), 7, null),
      image_url: maybe(sometimes(text(token), 5, ['x'])),
      meta_data: maybe(sometimes(rewardMeta(token), 'none', [1])),
      reward_point_cost: maybe(sometimes(integer, -500, 12.5, '500', 2 ** 60)),
      extra: junk(token),
    },
    { requiredKeys: ['id', 'name', 'cost', 'cost_currency', 'type'] },
  ) as fc.Arbitrary<Json>;
}

function redemption(token: string): fc.Arbitrary<Json> {
  return fc.record(
    {
      id: exactId,
      cost: sometimes(finite, null, 1e308, '5'),
      currency: sometimes(text(token), 826, null),
      // Points spent the interface cannot mean: kept as unknown, never "-500 points".
      reward_point_cost: sometimes(integer, -500, 1.5, '500', null),
      reward: reward(token),
      approved: sometimes(fc.boolean(), 'yes', null),
      processed: sometimes(fc.boolean(), 1, null),
      // What identifies a redemption is strict: a timestamp in one of its spellings (utils/instants.ts).
      created_at: fc.constantFrom(
        '2024-05-01 10:00:00',
        '2024-05-01T10:00:00',
        '2024-05-01T10:00:00.000000Z',
        '2024-05-01T12:00:00+02:00',
      ),
      updated_at: sometimes(text(token), 5, null),
      failed: sometimes(fc.boolean(), 'false'),
      refunded: sometimes(fc.boolean(), 0),
      partner_status: maybe(fc.oneof(fc.constantFrom('COMPLETE', 'UNCLAIMED', 'WEIRD'), text(token))),
      failed_reason: maybe(text(token)),
      transaction_id: maybe(text(token)),
    },
    {
      requiredKeys: [
        'id',
        'cost',
        'currency',
        'reward_point_cost',
        'reward',
        'approved',
        'processed',
        'created_at',
        'updated_at',
        'failed',
        'refunded',
      ],
    },
  ) as fc.Arbitrary<Json>;
}

/** Stored values (design §3): a list of name/value records or a map from name to value. */
function storedValuesData(token: string): fc.Arbitrary<Json> {
  const record = fc
    .tuple(
      fc.constantFrom('name', 'variable_name', 'var_name'),
      nonEmptyText(token),
      fc.constantFrom('value', 'values'),
      junk(token),
      fc.option(fc.tuple(fc.constantFrom('name', 'variable_name', 'id', 'type'), junk(token)), { nil: undefined }),
    )
    .map(([nameKey, name, valueKey, value, extra]) => {
      const out: Record<string, Json> = {};
      if (extra && extra[0] !== nameKey) defineOwn(out, extra[0], extra[1]);
      defineOwn(out, nameKey, name);
      defineOwn(out, valueKey, value);
      return out;
    });
  const map = fc
    .array(
      fc.tuple(
        fc.oneof(text(token), fc.constantFrom('__proto__', 'constructor', 'toString', 'FIRST_NAME')),
        junk(token),
      ),
      {
        maxLength: 6,
      },
    )
    .map((entries) => {
      const out: Record<string, Json> = {};
      for (const [key, value] of entries) defineOwn(out, key, value);
      return out;
    });
  return fc.oneof(fc.array(record, { maxLength: 5 }), map);
}

const SUCCESS_VARIANTS = ['success', 'Success', 'SUCCESS', ' success ', 'success\n'];

/** A valid body for the endpoint: the documented shape, unknown extra fields included. */
export function validBody(endpoint: EndpointName, token: string): fc.Arbitrary<Json> {
  const message = fc.option(fc.oneof(fc.constant('success'), text(token)), { nil: undefined });
  const withTop = (key: string, list: fc.Arbitrary<Json>, balance: boolean) =>
    fc.tuple(list, message, balance ? balanceFields(token) : fc.constant({})).map(([value, msg, extra]) => {
      const out: Record<string, Json> = { ...extra };
      if (msg !== undefined) out.message = msg;
      out[key] = value;
      return out;
    });
  switch (endpoint) {
    case 'listVariables':
      return withTop('data', fc.array(variableDefinition(token), { maxLength: 4 }), false);
    case 'readValues':
      return withTop('data', storedValuesData(token), true);
    case 'listRedemptions':
      return withTop('redemptions', fc.array(redemption(token), { maxLength: 3 }), false);
    case 'listRewards':
      return withTop('rewards', fc.array(reward(token), { maxLength: 4 }), true);
    case 'updateValues':
    case 'deleteValue':
    case 'redeem':
      return fc
        .tuple(fc.constantFrom(...SUCCESS_VARIANTS), fc.option(junk(token), { nil: undefined }))
        .map(([msg, extra]): Json => (extra === undefined ? { message: msg } : { message: msg, data: extra }));
  }
}

/** The field of a body that carries its payload. */
export function payloadKey(endpoint: EndpointName): string {
  switch (endpoint) {
    case 'listVariables':
    case 'readValues':
      return 'data';
    case 'listRedemptions':
      return 'redemptions';
    case 'listRewards':
      return 'rewards';
    default:
      return 'message';
  }
}

/** A valid body whose payload list has 1,000 to 3,000 entries (one generated entry, repeated with new ids). */
function hugeValidBody(endpoint: EndpointName): fc.Arbitrary<Json> {
  const n = fc.integer({ min: 1000, max: 3000 });
  const repeat = (item: fc.Arbitrary<Json>, key: string, count$ = n) =>
    fc.tuple(item, count$).map(([one, count]) => ({
      message: 'success',
      points: 10,
      [key]: Array.from({ length: count }, (_, i) =>
        typeof one === 'object' && one !== null && !Array.isArray(one) && 'id' in one ? { ...one, id: i } : one,
      ),
    }));
  // Small entries keep a body with thousands of them within a few hundred kB.
  const small = { maxLength: 8 };
  const smallReward = fc.record({
    id: fc.nat(),
    name: fc.string(small),
    cost: fc.nat(),
    cost_currency: fc.constantFrom('USD', 'EUR'),
    type: fc.constant('custom'),
  });
  switch (endpoint) {
    case 'listVariables':
      return repeat(
        fc.record({
          id: fc.nat(),
          name: fc.string({ minLength: 1, maxLength: 8 }),
          type: fc.constant('text'),
          writable: fc.boolean(),
        }),
        'data',
      );
    case 'readValues':
      return fc.tuple(fc.string(small), n).map(([value, count]) => ({
        data: Array.from({ length: count }, (_, i) => ({ name: `V${i}`, value })),
      }));
    case 'listRedemptions':
      return repeat(
        fc.tuple(smallReward, fc.boolean()).map(([r, flag]) => ({
          id: 1,
          cost: 5,
          currency: 'USD',
          reward_point_cost: 500,
          reward: r,
          approved: flag,
          processed: flag,
          created_at: '2024-05-01 10:00:00',
          updated_at: '2024-05-01 10:00:00',
          failed: false,
          refunded: false,
        })),
        'redemptions',
        // A redemption is the largest entry: 1,000 to 1,200 of them keep the body under 400 kB.
        fc.integer({ min: 1000, max: 1200 }),
      );
    case 'listRewards':
      return repeat(smallReward, 'rewards');
    default:
      // A write's confirmation with a huge list of junk beside it.
      return fc.tuple(fc.constantFrom(...SUCCESS_VARIANTS), hugeArray()).map(([message, data]) => ({ message, data }));
  }
}

// ---------------------------------------------------------------------------------------------
// Mutation: one field (or the whole body) deleted, nulled or replaced

type Path = (string | number)[];

function paths(value: Json, prefix: Path = [], out: Path[] = []): Path[] {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((item, i) => paths(item, [...prefix, i], out));
  else if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) paths(value[key] as Json, [...prefix, key], out);
  }
  return out;
}

/** `body` with the node at `path` deleted (`undefined`) or replaced; the root is replaced. */
export function mutate(body: Json, path: Path, by: Json | undefined): Json {
  if (path.length === 0) return by === undefined ? null : by;
  const copy = structuredClone(body);
  let parent: Json = copy;
  for (const step of path.slice(0, -1)) parent = (parent as Record<string | number, Json>)[step] as Json;
  const last = path[path.length - 1] as string | number;
  if (Array.isArray(parent)) {
    if (by === undefined) parent.splice(last as number, 1);
    else parent[last as number] = by;
  } else if (parent !== null && typeof parent === 'object') {
    if (by === undefined) delete parent[last as string];
    else defineOwn(parent, last as string, by);
  }
  return copy;
}

/**
 * The keys of the fields the client depends on, per endpoint (the documented required fields of
 * each entry, the payload list, the balance and the write confirmation).
 */
const ESSENTIAL_KEYS: Record<EndpointName, readonly string[]> = {
  listVariables: ['data', 'id', 'name', 'type', 'writable', 'options'],
  readValues: ['data', 'name', 'variable_name', 'var_name', 'value', 'values', 'points', 'balance'],
  listRedemptions: [
    'redemptions',
    'id',
    'cost',
    'currency',
    'reward_point_cost',
    'reward',
    'approved',
    'processed',
    'created_at',
    'updated_at',
    'failed',
    'refunded',
    'name',
    'cost_currency',
    'type',
  ],
  listRewards: [
    'rewards',
    'id',
    'name',
    'cost',
    'cost_currency',
    'type',
    'image_url',
    'meta_data',
    'reward_point_cost',
    'points',
  ],
  updateValues: ['message'],
  deleteValue: ['message'],
  redeem: ['message'],
};

/** Values of another type than `original` (or out of its range) that a careless parser might accept. */
function nearMisses(original: Json): Json[] {
  if (typeof original === 'number') return [1.5, -0.5, 1e-7, String(original)];
  if (typeof original === 'string') return [1, 0, true, [], {}, [original]];
  if (typeof original === 'boolean') return [String(original), 1, 0, 'yes'];
  if (Array.isArray(original)) return [{}, 'x', 0, [null], [0]];
  if (original !== null && typeof original === 'object') return [[], 'x', 0, [original]];
  return [0, '', false, {}];
}

type Mutation = { op: 'delete' } | { op: 'null' } | { op: 'near'; pick: number } | { op: 'replace'; by: Json };

function mutatedBody(endpoint: EndpointName, token: string): fc.Arbitrary<Json> {
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    fc.constant<Mutation>({ op: 'delete' }),
    fc.constant<Mutation>({ op: 'null' }),
    { weight: 3, arbitrary: fc.nat().map((pick): Mutation => ({ op: 'near', pick })) },
    { weight: 2, arbitrary: replacement(token).map((by): Mutation => ({ op: 'replace', by })) },
  );
  const essential = new Set(ESSENTIAL_KEYS[endpoint]);
  return fc
    .tuple(validBody(endpoint, token), fc.boolean(), fc.nat(), fc.nat(), mutation)
    .map(([body, targeted, groupPick, pathPick, m]) => {
      // A group first, then a node in it, so that rare but important nodes are hit often: either
      // (targeted) the fields the client depends on, grouped by key, or any node, grouped by depth.
      const all = paths(body);
      const groups = new Map<string | number, Path[]>();
      for (const path of all) {
        const last = path[path.length - 1];
        const key = targeted ? (typeof last === 'string' && essential.has(last) ? last : undefined) : path.length;
        if (key !== undefined) groups.set(key, [...(groups.get(key) ?? []), path]);
      }
      if (groups.size === 0) groups.set(0, all);
      const keys = [...groups.keys()];
      const group = groups.get(keys[groupPick % keys.length] as string | number) as Path[];
      const path = group[pathPick % group.length] as Path;
      if (m.op === 'delete') return mutate(body, path, undefined);
      if (m.op === 'null') return mutate(body, path, null);
      if (m.op === 'replace') return mutate(body, path, m.by);
      let original: Json = body;
      for (const step of path) original = (original as Record<string | number, Json>)[step] as Json;
      const options = nearMisses(original);
      return mutate(body, path, options[m.pick % options.length]);
    });
}

// ---------------------------------------------------------------------------------------------
// The other families

function nonJson(endpoint: EndpointName, token: string): fc.Arbitrary<string> {
  const valid = validBody(endpoint, token).map((b) => JSON.stringify(b));
  return fc
    .oneof(
      fc.tuple(valid, fc.nat()).map(([t, cut]) => t.slice(0, cut % Math.max(1, t.length))),
      valid.map((t) => `${t}x`),
      valid.map((t) => `${t}${t}`),
      valid.map((t) => t.replace(/"/g, "'")),
      valid.map((t) => `)]}',\n${t}`),
      fc.constantFrom(
        '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>',
        '{"rewards": NaN}',
        '{"data": [Infinity]}',
        '{"message": "success",}',
        '[1,]',
        'undefined',
        '{message: "success"}',
        '\u0000',
        "{'message':'success'}",
        '{"message":"success"',
        'success',
      ),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 200 }),
      fc.string({ minLength: 1, maxLength: 200 }),
      fc.constant(`Internal error: token=${token}`),
    )
    .filter((t) => t.trim() !== '' && !parsesAsJson(t));
}

/**
 * Laravel-style `errors` (`{NAME: ["…"]}`) and hostile variations of it: names that are empty,
 * nested (`HOBBIES.0`), `__proto__` or carry the token; texts of any type; not an object at all.
 */
function validationErrors(token: string): fc.Arbitrary<Json> {
  const name = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom('FIRST_NAME', 'HOBBIES.0', 'HOBBIES.1', '__proto__', 'constructor', '', ' '),
    },
    { weight: 2, arbitrary: text(token) },
  );
  const texts = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.array(fc.oneof(text(token), tokenText(token), junk(token)), { maxLength: 4 }) as fc.Arbitrary<Json>,
    },
    { weight: 1, arbitrary: junk(token) },
  );
  const object = fc.array(fc.tuple(name, texts), { maxLength: 8 }).map((entries) => {
    const out: Record<string, Json> = {};
    for (const [key, value] of entries) defineOwn(out, key, value);
    return out;
  });
  return fc.oneof({ weight: 4, arbitrary: object }, { weight: 1, arbitrary: junk(token) });
}

function errorBody(token: string): fc.Arbitrary<Json> {
  const value = fc.oneof(text(token), tokenText(token), junk(token));
  // One huge value at most, so that the body stays within what the sandbox accepts as a fault.
  const message = fc.oneof({ weight: 4, arbitrary: value }, { weight: 1, arbitrary: hugeString(token) });
  return fc.record(
    { message, error: value, field: value, errors: validationErrors(token), code: junk(token) },
    { requiredKeys: [] },
  ) as fc.Arbitrary<Json>;
}

function bodyOf(endpoint: EndpointName, token: string): fc.Arbitrary<{ family: Family; body: string }> {
  const key = payloadKey(endpoint);
  const json = (family: Family, arb: fc.Arbitrary<Json>) => arb.map((b) => ({ family, body: toJsonText(b) }));
  const under = (arb: fc.Arbitrary<Json>): fc.Arbitrary<Json> =>
    fc.oneof(
      arb,
      arb.map((x) => ({ [key]: x })),
      arb.map((x) => ({ message: 'success', [key]: x, points: 10 })),
    );
  const isWrite = WRITE_ENDPOINTS.includes(endpoint);
  return fc.oneof(
    { weight: 6, arbitrary: json('valid', validBody(endpoint, token)) },
    { weight: 1, arbitrary: json('valid-huge', hugeValidBody(endpoint)) },
    { weight: 6, arbitrary: json('mutated', mutatedBody(endpoint, token)) },
    {
      weight: isWrite ? 2 : 0,
      arbitrary: json(
        'refusal',
        fc
          .oneof(
            text(token).filter((m) => m.trim().toLowerCase() !== 'success'),
            tokenText(token),
          )
          .map((message) => ({ message })),
      ),
    },
    { weight: 1, arbitrary: json('wrong-type', fc.oneof(junk(token), fc.jsonValue() as fc.Arbitrary<Json>)) },
    { weight: 1, arbitrary: json('huge-string', under(hugeString(token))) },
    { weight: 1, arbitrary: json('huge-array', under(hugeArray())) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        json('nested', under(deepValue(token))),
        deepText().map((body) => ({ family: 'nested' as Family, body })),
      ),
    },
    { weight: 1, arbitrary: nonJson(endpoint, token).map((body) => ({ family: 'non-json' as Family, body })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', ' ', '\n', '\r\n\t ').map((body) => ({ family: 'empty' as Family, body })),
    },
    { weight: 1, arbitrary: json('error-body', errorBody(token)) },
  );
}

const statusArb: fc.Arbitrary<number> = fc.oneof(
  { weight: 6, arbitrary: fc.constant(200) },
  ...STATUSES.filter((s) => s !== 200).map((s) => ({ weight: 1, arbitrary: fc.constant<number>(s) })),
);

const headersArb: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({}) },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom(
        '0',
        '1',
        '3600',
        '0.5',
        '-5',
        'soon',
        '',
        '99999999999999999999',
        'Wed, 21 Oct 2015 07:28:00 GMT',
        'Fri, 01 Jan 2100 00:00:00 GMT',
      )
      .map((value) => ({ 'Retry-After': value })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        'text/html; charset=utf-8',
        'text/plain',
        'application/octet-stream',
        'application/json; charset=latin1',
      )
      .map((value) => ({ 'Content-Type': value })),
  },
);

/** One hostile answer for `endpoint`; roughly 1 in 60 drops the connection instead. */
export function hostileResponse(endpoint: EndpointName, token: string): fc.Arbitrary<HostileResponse> {
  return fc
    .tuple(
      bodyOf(endpoint, token),
      statusArb,
      headersArb,
      fc.oneof({ weight: 60, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    )
    .map(([{ family, body }, status, headers, drop]) => {
      const response: HostileResponse = { family, status, body, headers, drop };
      // A counterexample can hold a 100 kB body: fast-check prints this short form instead.
      Object.defineProperty(response, fc.toStringMethod, { value: () => describeResponse(response) });
      return response;
    });
}

/** A one-line description of a response, with at most 300 characters of its body. */
export function describeResponse(r: HostileResponse): string {
  const excerpt =
    r.body.length > 300 ? `${JSON.stringify(r.body.slice(0, 300))}… (${r.body.length} chars)` : JSON.stringify(r.body);
  const headers = Object.keys(r.headers).length ? ` headers ${JSON.stringify(r.headers)}` : '';
  return `[${r.family}] ${r.drop ? 'connection dropped' : `HTTP ${r.status}`}${headers} body ${excerpt}`;
}
