/**
 * A small panel on 127.0.0.1 for the doctor's tests that does what the sandbox never would: it
 * serves whatever catalogue a test gives it (costs below zero, fractions, strings), lets every
 * redemption through whatever the balance, ignores `Idempotency-Key` unless told to honour it,
 * and lets a test change how a save, a read or a redeem is answered. It records every request, so
 * a test can check what reached it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const HOSTILE_KEY = 'hostile-panel-key-7c1e';

export interface HostileRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export interface HostileState {
  /** Sent as the rewards answer's top-level `points`, as is (a string too); null: not sent. */
  balance: unknown;
  rewards: Record<string, unknown>[];
  meta: Record<string, unknown>[];
  values: Record<string, unknown>;
  redemptions: Record<string, unknown>[];
}

type Answer = { status?: number; headers?: Record<string, string>; body?: unknown; text?: string };

export interface HostileOptions {
  /** The test panelist's key the panel lets in (default HOSTILE_KEY). */
  key?: string;
  state?: Partial<HostileState>;
  /** Extra headers on every read's answer (caching tests). */
  readHeaders?: Record<string, string>;
  /** A profile save: changes the state as this panel does (default: stores what was sent). */
  onSave?: (sent: Record<string, unknown>, state: HostileState) => void;
  /** Keep the answer of the first request with an Idempotency-Key, and give it back for the same key. */
  honourKey?: boolean;
  /**
   * A row lock in place of the key: each redeem takes `ms`, and one arriving while another is being
   * processed gets 409; the key itself is ignored, so a copy sent after the first answered is charged.
   */
  lock?: { ms: number };
  /** The history never lists a redemption (the points are taken all the same). */
  unlisted?: boolean;
  /** Answers a request before the panel does, when it returns one (a 429, an HTML page, …). */
  intercept?: (request: HostileRequest, n: number) => Answer | undefined;
}

export interface HostilePanel {
  url: string;
  state: HostileState;
  requests: HostileRequest[];
  redeems(): HostileRequest[];
  close(): Promise<void>;
}

const reward = (id: number, name: string, points: unknown, extra: Record<string, unknown> = {}) => ({
  id,
  name,
  cost: 5,
  cost_currency: 'USD',
  type: 'giftcard_aggregator',
  image_url: '',
  meta_data: {},
  reward_point_cost: points,
  ...extra,
});

/** The catalogue the operator met: an unaffordable card, and costs no panel can mean. */
export function hostileCatalogue(): Record<string, unknown>[] {
  return [
    reward(101, 'Minus Five Hundred Card', -500),
    reward(102, 'Half Point Card', 999.5),
    reward(103, 'String Cost Card', '1650'),
    reward(104, 'Affordable Card', 500),
    reward(105, 'No Cost Card', null),
    reward(108, 'Atlas Travel £100 Gift Card', 11_000, { cost: 100, cost_currency: 'GBP' }),
  ];
}

function defaults(): HostileState {
  return {
    balance: 2500,
    rewards: hostileCatalogue(),
    meta: [{ id: 1, name: 'FIRST_NAME', text: 'First name', type: 'text', writable: true, options: [] }],
    values: { FIRST_NAME: 'Jordan' },
    redemptions: [],
  };
}

function send(res: ServerResponse, answer: Answer): void {
  const text = answer.text ?? (answer.body === undefined ? '' : JSON.stringify(answer.body));
  res.writeHead(answer.status ?? 200, { 'Content-Type': 'application/json', ...answer.headers });
  res.end(text);
}

/** The request as the panel's handlers see it: path, query, headers, and the body as JSON when it is. */
function readRequest(req: IncomingMessage, then: (request: HostileRequest) => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    then({
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body,
    });
  });
}

export async function startHostilePanel(options: HostileOptions = {}): Promise<HostilePanel> {
  const state: HostileState = { ...defaults(), ...options.state };
  const requests: HostileRequest[] = [];
  const kept = new Map<string, Answer>();
  let nextId = 7000;

  function redeem(request: HostileRequest): Answer {
    const key = typeof request.headers['idempotency-key'] === 'string' ? request.headers['idempotency-key'] : null;
    if (options.honourKey && key && kept.has(key)) return kept.get(key)!;
    const id = Number(request.query.id);
    const item = state.rewards.find((r) => r.id === id);
    if (!item) return { status: 404, body: { message: 'No such reward.' } };
    // No precondition at all: whatever the balance, the redemption is made and the points taken.
    const points = typeof item.reward_point_cost === 'number' ? item.reward_point_cost : 11_000;
    state.balance = Number(state.balance) - points;
    const now = new Date().toISOString().slice(0, 19);
    state.redemptions.push({
      id: (nextId += 1),
      cost: item.cost,
      currency: item.cost_currency,
      reward_point_cost: points,
      reward: { ...item, reward_point_cost: null },
      approved: true,
      processed: false,
      created_at: now,
      updated_at: now,
      failed: false,
      refunded: false,
      partner_status: null,
      failed_reason: null,
      transaction_id: null,
    });
    const answer = { body: { message: 'success' } };
    if (key) kept.set(key, answer);
    return answer;
  }

  function handle(request: HostileRequest): Answer {
    const auth = request.headers.authorization;
    if (auth !== `Bearer ${options.key ?? HOSTILE_KEY}`) return { status: 401, body: { message: 'Unauthenticated.' } };
    const read = (body: Record<string, unknown>): Answer => ({
      headers: options.readHeaders,
      body: { message: 'success', ...body },
    });
    const route = `${request.method} ${request.path}`;
    if (route === 'GET /v1/panel/rewards')
      return read({ ...(state.balance === null ? {} : { points: state.balance }), rewards: state.rewards });
    if (route === 'GET /v1/panel/redemptions') return read({ redemptions: options.unlisted ? [] : state.redemptions });
    if (route === 'GET /v1/panel/variables/meta') return read({ data: state.meta });
    if (route === 'GET /v1/panel/variables/data') {
      if (request.query.filter && request.query.filter !== 'writable')
        return { status: 422, body: { message: 'The selected filter is invalid.', errors: { filter: ['invalid'] } } };
      return read({ data: state.values });
    }
    if (route === 'POST /v1/panel/variables/data') {
      const sent = request.body as Record<string, unknown>;
      if (options.onSave) options.onSave(sent, state);
      else Object.assign(state.values, sent);
      return { body: { message: 'success' } };
    }
    if (route === 'GET /v1/panel/redemption') return redeem(request);
    return { status: 404, body: { message: 'Not found.' } };
  }

  let busy = false;
  /** A redeem behind the row lock: 409 while another is processed, else processed after `ms`. */
  async function locked(request: HostileRequest, ms: number): Promise<Answer> {
    if (busy) return { status: 409, body: { message: 'Another redemption is being processed.' } };
    busy = true;
    await new Promise((resolve) => setTimeout(resolve, ms));
    busy = false;
    return handle(request);
  }

  const server = createServer((req, res) =>
    readRequest(req, (request) => {
      requests.push(request);
      const early = options.intercept?.(request, requests.length);
      if (early) return send(res, early);
      if (options.lock && request.path === '/v1/panel/redemption')
        return void locked(request, options.lock.ms).then((answer) => send(res, answer));
      send(res, handle(request));
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    requests,
    redeems: () =>
      requests.filter((r) => r.path.toLowerCase().includes('redemption') && !r.path.endsWith('redemptions')),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
