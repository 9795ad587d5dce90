// @vitest-environment node
/**
 * A fuzz test over the panel's answers. fast-check draws hostile but well-formed JSON panels — rewards with random and extreme
 * numbers, currencies that are not ISO 4217 codes, image addresses with `javascript:`, `ftp:`,
 * `data:`, link-local, private and unicode hosts, HTML fields with event handlers and `javascript:`
 * links, balances below zero, fractional or huge, and reads or redeems answered 301/302/303/307/308
 * towards another server — served by the sandbox over real HTTP. The real API client reads and
 * redeems, and the background's own refresh stores what it read (fake extension storage). After every
 * run, of everything returned or stored:
 *
 * - no reward is redeemable (by the popup's row model, utils/api/schemas.ts's quarantine) with a cost
 *   below zero or not a safe integer, and a cost the panel cannot mean is always quarantined;
 * - no amount is formatted as money with a currency that is not an ISO 4217 code;
 * - every image address kept passes utils/image-url.ts's rule (and none is javascript:, data:, ftp:
 *   or a link-local host);
 * - the reward HTML as the sanitizer's first stage hands it to a parser (utils/handler-free-markup.ts),
 *   parsed as a browser does (parse5), carries no `on*` attribute at any depth; and what the sanitizer
 *   (utils/sanitize.ts, DOMPurify) returns has no `on*` attribute and no `javascript:` or `vbscript:`
 *   address. DOMPurify runs on jsdom here, the DOM its maintainers support outside a browser (on
 *   happy-dom, which the other unit tests use, it is unsupported and returns scripts untouched);
 * - no balance stored or recorded in the history is below zero or not a safe integer; an impossible
 *   balance is told as such (naming its endpoint), never refuses its answer, and is stored as not read;
 * - each record is checked on its own: no reward, redemption or profile question the interface cannot
 *   mean (a null, array, string or 1e308 value, a numeric currency, -500 points spent, flags that are
 *   not booleans, a question whose type or `writable` is not of its type) refuses its read; such a
 *   reward is quarantined, no money figure is shown beyond what its currency prints exactly, no points
 *   spent are shown below zero or as a fraction, and such a question is never writable nor open;
 * - variable names are data: a question named `__proto__`, `constructor` or `toString` keeps its own
 *   answer, leaves the others alone, and nothing reaches Object.prototype;
 * - every failure is one typed AppError;
 * - and no request ever reaches the second server the redirects point at (its request log is empty).
 *
 * `npm test` replays the same runs every time (FUZZ_SEED, fixed); FUZZ_RUNS sets how many, FUZZ_SEED
 * and FUZZ_PATH replay a failure, whose message names both.
 */
import fc from 'fast-check';
import { JSDOM } from 'jsdom';
import { parseFragment } from 'parse5';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { rowModel } from '../../components/popup/model/row-model';
import { httpTuning } from '../../entrypoints/background/auth/api';
import { balanceIdle, watchBalance } from '../../entrypoints/background/balance-history';
import { refreshProfile, refreshRewards } from '../../entrypoints/background/sync/sync';
import { createPanelApi, ENDPOINTS } from '../../utils/api/client';
import { isImpossible, UNREAD_BALANCE, type BodyBalance } from '../../utils/balance';
import { APP_ERROR_KINDS, AppErrorException } from '../../utils/errors';
import { formatMoney, isCurrencyCode } from '../../utils/format';
import { completeness } from '../../utils/profile-completeness';
import { handlerFreeMarkup } from '../../utils/handler-free-markup';
import { safeImageUrl } from '../../utils/image-url';
import { sanitizeHtml } from '../../utils/sanitize';
import { groupRewards } from '../../utils/reward-groups';
import { HTML_FIELDS } from '../../utils/reward-html';
import { balanceHistoryItem, rewardHtmlItem, rewardsItem } from '../../utils/storage-items';
import type { Redemption, Reward, StoredValues, VariableDefinition } from '../../utils/types';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { closeSandboxes, connectTo } from './background-helpers';

const RUNS = Number(process.env.FUZZ_RUNS ?? 50);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_129);

let panel: Sandbox;
/** The "elsewhere" every redirect points at: it must never hear from the extension. */
let elsewhere: Sandbox;
let unwatch: () => void;

beforeAll(async () => {
  [panel, elsewhere] = await Promise.all([startSandbox({ port: 0 }), startSandbox({ port: 0 })]);
  Object.assign(httpTuning, { timeoutMs: 1000, retryBaseDelayMs: 1 });
  unwatch = watchBalance();
});
afterAll(async () => {
  unwatch();
  await closeSandboxes(panel, elsewhere);
});

// ---------------------------------------------------------------------------------------------
// What a hostile panel answers

/** Points costs: mostly real ones, and every kind the interface cannot mean. */
const pointCost = fc.oneof(
  { weight: 4, arbitrary: fc.nat({ max: 20_000 }) },
  { weight: 2, arbitrary: fc.integer({ min: -1_000_000, max: -1 }) },
  { weight: 1, arbitrary: fc.double({ min: -1e6, max: 1e6, noNaN: true }).filter((n) => !Number.isInteger(n)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      0,
      -0,
      2 ** 53,
      2 ** 60,
      1e21,
      Number.MAX_SAFE_INTEGER,
      '500',
      '-500',
      true,
      null,
      { points: 5 },
      [500],
    ),
  },
);

const currency = fc.oneof(
  fc.constantFrom<unknown>(840, null, ['USD']),
  fc.constantFrom('USD', 'EUR', 'GBP', 'JPY', 'CHF'),
  fc.constantFrom('ZZZ', 'XYZ', 'dollars', 'usd', 'Eur', 'EURO', '', ' USD', 'US$', '€', 'XTS', 'USD\u0000'),
  fc.stringMatching(/^[A-Z]{3}$/),
  fc.string({ maxLength: 6 }),
);

const money = fc.oneof(
  fc.double({ min: -1e6, max: 1e6, noNaN: true }),
  fc.integer({ min: -100, max: 1000 }),
  fc.constantFrom<unknown>(0, -5, 1e308, 5e-324, 2 ** 60, 9_999_999_999_999.99, 1e13, null, [5], '5.00'),
);

/** Addresses an image could be given, good and hostile; `{panel}` and `{elsewhere}` are filled per run. */
const IMAGE_URLS = [
  'https://cdn.example/card.png',
  'https://images.sandbox.invalid/giftcards/a/80w-326ppi.png',
  '{panel}/images/card.png',
  '{elsewhere}/images/card.png',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(document.domain)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  'ftp://files.example/card.png',
  'data:image/png;base64,iVBORw0KGgo=',
  'data:image/svg+xml,<svg onload=alert(1)>',
  'http://169.254.169.254/latest/meta-data/',
  'https://169.254.169.254/latest/meta-data/iam',
  'https://[::ffff:169.254.169.254]/x.png',
  'https://[fe80::1]/x.png',
  'https://[fd00::1]/x.png',
  'https://[::1]/x.png',
  'https://10.0.0.1/x.png',
  'https://172.16.5.4/x.png',
  'https://192.168.1.1/x.png',
  'https://100.64.0.1/x.png',
  'https://127.0.0.1/x.png',
  'https://0.0.0.0/x.png',
  'https://0x7f000001/x.png',
  'https://2130706433/x.png',
  'https://localhost/x.png',
  'https://a.localhost/x.png',
  'https://localhost./x.png',
  'https://router.localhost./x.png',
  'https://LOCALHOST../x.png',
  'https://127.0.0.1../x.png',
  'https://0x7f.1../x.png',
  'https://[::ffff:127.0.0.1]/x.png',
  'https://printer.local./x.png',
  'https://router/x.png',
  'https://bücher.example/x.png',
  'https://xn--bcher-kva.example/x.png',
  'https://еxample.com/x.png',
  'https://user:pass@cdn.example/x.png',
  'http://cdn.example/card.png',
  '//cdn.example/card.png',
  '/images/card.png',
  'blob:https://cdn.example/uuid',
  'file:///etc/passwd',
  '',
];
const imageUrl = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...IMAGE_URLS) },
  { weight: 1, arbitrary: fc.webUrl() },
  { weight: 1, arbitrary: fc.string() },
);

/** Markup a hostile catalogue could put in a reward's HTML fields. */
const HOSTILE_HTML = [
  '<p>Plain <strong>terms</strong> and a <a href="https://shop.example/">link</a>.</p>',
  '<img src=x onerror=alert(1)>',
  '<img/src/onerror=alert(1)>',
  '<IMG SRC=x ONERROR=alert(1)>',
  '<svg onload=alert(1)>',
  '<svg><animate onbegin=alert(1) attributeName=x dur=1s>',
  '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">x</text></a></svg>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JAVASCRIPT:alert(1)">x</a>',
  '<a href=" javascript:alert(1)">x</a>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<a href="&#106;avascript:alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<area href="javascript:alert(1)">',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<form action="javascript:alert(1)"><button formaction="javascript:alert(1)">x</button></form>',
  '<div onclick="alert(1)" onmouseover=alert(1)>x</div>',
  '<details open ontoggle=alert(1)>',
  '<body onload=alert(1)>',
  '<p title="a" onpointerenter="alert(1)" data-x="1">x</p>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<textarea><img src=x onerror=alert(1)></textarea>',
  '<template><img src=x onerror=alert(1)></template>',
  '<!--<img src=x onerror=alert(1)>-->',
  '<![CDATA[<img src=x onerror=alert(1)>]]>',
  '<style>@import "javascript:alert(1)";</style>',
  '<script>alert(1)</script>',
  '<xmp><img src=x onerror=alert(1)></xmp>',
  '<svg><style><img src=x onerror=alert(1)></style></svg>',
  '<a href="https://ok.example/" onclick=alert(1)>ok</a>',
  '<img src="x" on\u0000error=alert(1)>',
  '<div/onclick=alert(1)>x',
];
const html = fc
  .array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...HOSTILE_HTML) }, { weight: 1, arbitrary: fc.string() }), {
    minLength: 1,
    maxLength: 4,
  })
  .map((parts) => parts.join(''));

const WIDTHS = ['80w-326ppi', '130w-326ppi', '200w-326ppi', '278w-326ppi', '300w-326ppi', '1200w-326ppi'];

const reward = fc.record({
  name: fc.oneof(
    fc.constantFrom('Bluefin Coffee $5', 'PayWave 50 € Transfer', 'Atlas <b>Travel</b>'),
    fc.string({ maxLength: 20 }),
  ),
  cost: money,
  cost_currency: currency,
  type: fc.constantFrom('giftcard_aggregator', 'wallet_payout', 'mystery'),
  image_url: imageUrl,
  reward_point_cost: pointCost,
  meta_data: fc.record(
    {
      image_url: imageUrl,
      image_urls: fc.dictionary(fc.constantFrom(...WIDTHS), imageUrl, { maxKeys: 4 }),
      currency_code: currency,
      value_type: fc.constantFrom('FIXED_VALUE', 'VARIABLE_VALUE'),
      min_value: fc.constantFrom('5.00', '-5.00', 'NaN', '1e400'),
      max_value: fc.constantFrom('50.00', '5.00', 'Infinity'),
      terms: html,
      disclaimer: html,
      description: html,
      short_description: html,
      redemption_instructions: html,
    },
    { requiredKeys: [] },
  ),
});

/** Balances: mostly points, and every kind the interface cannot mean (the sandbox sends finite numbers). */
const balance = fc.oneof(
  { weight: 4, arbitrary: fc.nat({ max: 50_000 }) },
  { weight: 2, arbitrary: fc.constantFrom(123_456_789_012, 2 ** 53, 2 ** 60, 1e21, -50, -1, 0.5, 2500.25, -1e6) },
  { weight: 1, arbitrary: fc.integer({ min: -100_000, max: -1 }) },
);

const REDIRECTED = [ENDPOINTS.rewards, ENDPOINTS.redemptions, ENDPOINTS.variablesData, ENDPOINTS.redemption] as const;
/** A read or redeem answered with a redirect off the panel, for a few requests. */
const redirect = fc.option(
  fc.record({
    path: fc.constantFrom(...REDIRECTED),
    status: fc.constantFrom(301, 302, 303, 307, 308),
    to: fc.constantFrom('elsewhere', 'protocol-relative', 'metadata'),
    times: fc.integer({ min: 1, max: 3 }),
  }),
  { freq: 2 },
);

/** Points spent, as a redemption of the history carries them: real ones, and every kind the interface cannot mean. */
const spent = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 20_000 }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(-500, -1, 1.5, 2 ** 60, '500', null, true) },
);
/** A state flag: a boolean, or something a panel should not send. */
const flag = fc.oneof(
  { weight: 4, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constantFrom<unknown>('yes', null, 1) },
);

const past = fc.record({ reward, points: spent, processed: flag, refunded: flag });

/** Names a question may have: ordinary ones, and those an object would take for its own. */
const VARIABLE_NAMES = ['FIRST_NAME', 'COUNTRY', 'HOBBIES', '__proto__', 'constructor', 'toString', 'valueOf'];
const question = fc.record({
  name: fc.constantFrom(...VARIABLE_NAMES),
  type: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('text', 'checkbox', 'radio') },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(5, null) },
  ),
  writable: flag,
  options: fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constant([
        { id: 1, name: 'A', text: 'A' },
        { id: 2, name: 'B', text: 'B' },
      ] as unknown),
    },
    { weight: 1, arbitrary: fc.constantFrom<unknown>([{ id: 'x' }], 'A,B', null) },
  ),
});
const answer = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom<unknown>([1], 2, { id: 1 }, null));
const profile = fc.record({
  questions: fc.uniqueArray(question, { selector: (q) => q.name, maxLength: 6 }),
  answers: fc.array(fc.tuple(fc.constantFrom(...VARIABLE_NAMES), answer), { maxLength: 6 }),
  shape: fc.constantFrom('records', 'map'),
});

const panelState = fc.record({
  rewards: fc.array(reward, { minLength: 1, maxLength: 5 }),
  history: fc.array(past, { maxLength: 3 }),
  profile,
  balance,
  balanceIn: fc.constantFrom('rewards', 'variables'),
  redirect,
});
type PanelState = typeof panelState extends fc.Arbitrary<infer T> ? T : never;

// ---------------------------------------------------------------------------------------------
// Serving it

const fill = (url: string) => url.replaceAll('{panel}', panel.url).replaceAll('{elsewhere}', elsewhere.url);

function fillImages<
  T extends { image_url: string; meta_data: { image_url?: string; image_urls?: Record<string, string> } },
>(r: T): T {
  const urls =
    r.meta_data.image_urls && Object.fromEntries(Object.entries(r.meta_data.image_urls).map(([k, u]) => [k, fill(u)]));
  return {
    ...r,
    image_url: fill(r.image_url),
    meta_data: {
      ...r.meta_data,
      ...(r.meta_data.image_url !== undefined ? { image_url: fill(r.meta_data.image_url) } : {}),
      ...(urls ? { image_urls: urls } : {}),
    },
  };
}

/** The panel's rewards, as planted: ids made unique, image addresses filled in. */
function planted(state: PanelState): Array<Record<string, unknown>> {
  return state.rewards.map((r, i) => ({ ...fillImages(r), id: 1001 + i }));
}

function redemptions(state: PanelState): Array<Record<string, unknown>> {
  return state.history.map(({ reward: r, points, processed, refunded }, i) => ({
    id: 9001 + i,
    cost: r.cost,
    currency: r.cost_currency,
    reward_point_cost: points,
    reward: { ...fillImages(r), id: 2001 + i, reward_point_cost: null },
    approved: true,
    processed,
    refunded,
    created_at: '2026-01-02T10:00:00',
    updated_at: '2026-01-02T10:05:00',
    failed: false,
    partner_status: null,
    failed_reason: null,
    transaction_id: null,
  }));
}

/** The panel's profile questions, ids made unique. */
function questions(state: PanelState): Array<Record<string, unknown>> {
  return state.profile.questions.map((q, i) => ({ id: 301 + i, text: q.name, uuid: `u${i}`, ...q }));
}

/** The panel's stored answers: every name its own property, as JSON.parse would make them. */
function answers(state: PanelState): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of state.profile.answers)
    Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  return out;
}

async function serve(state: PanelState): Promise<void> {
  if (state.redirect) seen.redirects += 1;
  panel.reset();
  elsewhere.reset();
  panel.state.rewards = planted(state) as never;
  panel.state.redemptions = redemptions(state) as never;
  panel.state.variables = questions(state) as never;
  panel.state.values = answers(state) as never;
  panel.state.valuesShape = state.profile.shape as never;
  panel.state.balance = state.balance;
  panel.state.balanceIn = state.balanceIn as never;
  if (state.redirect) {
    const { path, status, to, times } = state.redirect;
    const location =
      to === 'elsewhere'
        ? `${elsewhere.url}${path}`
        : to === 'protocol-relative'
          ? `//127.0.0.1:${elsewhere.port}${path}`
          : `http://169.254.169.254${path}`;
    const response = await fetch(`${panel.url}/__sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify({
        path,
        status,
        headers: { Location: location },
        body: JSON.stringify({ message: 'Moved' }),
        times,
      }),
    });
    if (!response.ok) throw new Error(`fault refused: ${await response.text()}`);
  }
}

// ---------------------------------------------------------------------------------------------
// The properties

const isPoints = (n: unknown) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
/** ISO 4217 as Node's Intl knows it: the oracle the currency checks use, apart from utils/format.ts's own. */
const ISO_4217 = new Set(Intl.supportedValuesOf('currency'));
const isIso = (code: unknown) => typeof code === 'string' && /^[A-Z]{3}$/.test(code) && ISO_4217.has(code);

/** What the runs exercised, printed at the end: a fuzz test that drew nothing hostile proves nothing. */
const seen = {
  redirects: 0,
  quarantined: 0,
  notMoney: 0,
  imagesDropped: 0,
  handlersRemoved: 0,
  balancesNotRead: 0,
  valuesRefused: 0,
  pointsSpentUnknown: 0,
  statesUnread: 0,
  questionsUnreadable: 0,
  objectNames: 0,
};

/**
 * An amount its currency can print exactly, on its own: a finite number of 0 or more whose minor
 * units (Intl's digits for the code) stay below 10^15; a code Intl does not know counts whole units.
 */
function isAmountOf(amount: unknown, currency: unknown): boolean {
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) return false;
  const digits = isIso(currency)
    ? (new Intl.NumberFormat('en', { style: 'currency', currency: currency as string }).resolvedOptions()
        .maximumFractionDigits ?? 2)
    : 0;
  return amount * 10 ** digits < 1e15;
}
const KINDS = new Set<string>(APP_ERROR_KINDS);

/** A call either answers or fails with exactly one typed AppError. */
async function settle<T>(call: Promise<T>): Promise<T | AppErrorException> {
  try {
    return await call;
  } catch (error) {
    if (!(error instanceof AppErrorException) || !KINDS.has(error.error.kind))
      throw new Error(`not a typed AppError: ${String(error)}`);
    return error;
  }
}

/**
 * The rule of utils/image-url.ts, and on its own, so a weakened rule cannot vouch for itself: an
 * address that parses, `https:` or the panel's own origin, and no loopback, private or link-local host.
 */
function checkImages(r: Reward, at: string): void {
  const urls = [r.image_url, r.meta_data?.image_url, ...Object.values(r.meta_data?.image_urls ?? {})].filter(
    (u): u is string => typeof u === 'string' && u !== '',
  );
  for (const url of urls) {
    expect(safeImageUrl(url, panel.url), `${at}: ${url} kept`).toBe(url);
    expect(URL.canParse(url), `${at}: ${url} kept`).toBe(true);
    const { protocol, hostname, origin } = new URL(url);
    if (origin === panel.url) continue;
    expect(protocol, `${at}: ${url} kept`).toBe('https:');
    // Trailing dots name the same host (Chromium sends `localhost.` to 127.0.0.1), and without them an
    // address may read as one again (`0x7f.1..`): parsed once more, as a browser would.
    const host = new URL(`https://${hostname.replace(/\.+$/, '')}/`).hostname;
    expect(host, `${at}: ${url} kept`).not.toMatch(/^(localhost|.*\.localhost|.*\.local|[^.]+)$/);
    expect(host, `${at}: ${url} kept`).not.toMatch(
      /^(0\.0\.0\.0|127\.|10\.|192\.168\.|169\.254\.|172\.(1[6-9]|2\d|3[01])\.|100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.|\[)/,
    );
  }
}

/** A node of a parse5 tree, as far as these checks read it. */
interface TreeNode {
  tagName?: string;
  attrs?: Array<{ name: string; value: string }>;
  childNodes?: TreeNode[];
  /** A `<template>`'s contents. */
  content?: TreeNode;
}

/** Every element of a parse5 tree, template contents included. */
function* elements(node: TreeNode): Generator<{ tagName: string; attrs: Array<{ name: string; value: string }> }> {
  if (node.tagName !== undefined && node.attrs) yield { tagName: node.tagName, attrs: node.attrs };
  if (node.content) yield* elements(node.content);
  for (const child of node.childNodes ?? []) yield* elements(child);
}

/** The DOM DOMPurify supports outside a browser, for utils/sanitize.ts: its `window`, `document` and `DocumentFragment`. */
const jsdom = new JSDOM('<!doctype html><html><body></body></html>');

/** utils/sanitize.ts on jsdom: the globals it reads are jsdom's for the call only. */
async function sanitizedOnJsdom(markup: string): Promise<DocumentFragment> {
  const { window } = jsdom;
  const globals = globalThis as Record<string, unknown>;
  const saved = { window: globals.window, document: globals.document, DocumentFragment: globals.DocumentFragment };
  Object.assign(globals, { window, document: window.document, DocumentFragment: window.DocumentFragment });
  try {
    return await sanitizeHtml(markup);
  } finally {
    Object.assign(globals, saved);
  }
}

const URL_ATTRIBUTES =
  /^(href|src|action|formaction|xlink:href|data|poster|background|cite|ping|lowsrc|dynsrc|longdesc|usemap)$/i;
// Browsers drop tabs, newlines and leading controls from an address before reading its scheme.
// oxlint-disable-next-line no-control-regex -- those controls are what the browser drops
const DROPPED_FROM_URLS = /[\u0000-\u0020]/g;

/** Every element of a DOM fragment, template contents included. */
function* domElements(node: ParentNode): Generator<Element> {
  for (const element of Array.from(node.querySelectorAll('*'))) {
    yield element;
    if (element.tagName === 'TEMPLATE') yield* domElements((element as HTMLTemplateElement).content);
  }
}

async function checkHtml(r: Reward, at: string): Promise<void> {
  for (const field of HTML_FIELDS) {
    const markup = r.meta_data?.[field];
    if (typeof markup !== 'string') continue;
    for (const element of elements(parseFragment(handlerFreeMarkup(markup)) as TreeNode)) {
      const handlers = element.attrs.filter((a) => /^on/i.test(a.name));
      expect(handlers, `${at}.${field}: <${element.tagName}> keeps ${handlers.map((a) => a.name).join(', ')}`).toEqual(
        [],
      );
    }
    for (const element of domElements(await sanitizedOnJsdom(markup))) {
      for (const { name, value } of Array.from(element.attributes)) {
        expect(name, `${at}.${field}: sanitized <${element.tagName.toLowerCase()}> keeps ${name}`).not.toMatch(/^on/i);
        if (URL_ATTRIBUTES.test(name))
          expect(value.replace(DROPPED_FROM_URLS, ''), `${at}.${field}: sanitized ${name}`).not.toMatch(
            /^(javascript|vbscript):/i,
          );
      }
    }
    if (/\son[a-z]+\s*=/i.test(markup)) seen.handlersRemoved += 1;
  }
}

/** Costs and money as the popup's rows show and offer them. */
function checkRows(rewards: readonly Reward[], points: number | null, at: string): void {
  for (const r of rewards) {
    expect(
      r.reward_point_cost === null || isPoints(r.reward_point_cost),
      `${at} ${r.id}: cost ${String(r.reward_point_cost)}`,
    ).toBe(true);
    // A quarantined reward is never redeemable; its points stay shown only when the panel can mean them.
    const m = rowModel({
      group: groupRewards([r])[0]!,
      choice: r,
      balance: points,
      blocked: false,
      goal: null,
      held: [],
      contact: [],
    });
    if (r.costRefused) expect(m.redeem.disabled, `${at} ${r.id}: quarantined yet offered`).toBe(true);
    if (!m.redeem.disabled)
      expect(
        // A cost nobody gave is never offered: only a known one.
        !r.costRefused && isPoints(r.reward_point_cost),
        `${at} ${r.id}: redeemable`,
      ).toBe(true);
    expect(m.points ?? '', `${at} ${r.id}`).not.toMatch(/-|\.\d/);
    if (!isIso(r.cost_currency)) {
      expect(m.money, `${at} ${r.id}: ${JSON.stringify(r.cost_currency)} shown as money`).toBe('');
      expect(formatMoney(r.cost, r.cost_currency), `${at} ${r.id}: ${JSON.stringify(r.cost_currency)}`).toBeNull();
    }
    // Money only as a figure its currency prints exactly: never a 400-character "£100,000,…".
    if (m.money !== '' && !m.money.includes('point'))
      expect(isAmountOf(r.cost, r.cost_currency), `${at} ${r.id}: ${m.money}`).toBe(true);
    expect(m.money.length, `${at} ${r.id}: ${m.money}`).toBeLessThan(40);
    expect(isCurrencyCode(r.cost_currency), `${at} ${r.id}: ${JSON.stringify(r.cost_currency)}`).toBe(
      isIso(r.cost_currency),
    );
  }
}

/** A planted cost the interface cannot mean is quarantined in what was read. */
function checkQuarantine(read: readonly Reward[], state: PanelState, at: string): void {
  const sent = planted(state);
  for (const r of read) {
    const original = sent.find((s) => String(s.id) === r.id);
    if (!original) continue;
    const cost = original.reward_point_cost;
    const given = cost !== null && cost !== undefined;
    const pointsMeant = !given || isPoints(cost);
    const valueMeant = typeof original.cost_currency === 'string' && isAmountOf(original.cost, original.cost_currency);
    const meant = pointsMeant && valueMeant;
    const what = JSON.stringify([cost, original.cost, original.cost_currency]);
    // A cost the list does not give is quarantined too, for that reason (a cost nobody gave): first
    // a points cost left out, then a value in money left out; a figure given that cannot be right
    // is said as that, before either.
    expect(r.costRefused === true, `${at} ${r.id}: ${what} quarantined`).toBe(!meant || !given);
    const left = (x: unknown) => x === null || x === undefined;
    const currency = original.cost_currency;
    const wrong =
      !pointsMeant ||
      (!left(currency) && typeof currency !== 'string') ||
      (typeof currency === 'string' && !left(original.cost) && !isAmountOf(original.cost, currency));
    const reason = wrong
      ? undefined
      : !given
        ? 'missing'
        : left(original.cost) || left(currency)
          ? 'unpriced'
          : undefined;
    expect(r.costReason, `${at} ${r.id}: ${what} reason`).toBe(reason);
    if (!pointsMeant) expect(r.reward_point_cost, `${at} ${r.id}: ${what}`).toBeNull();
    if (!pointsMeant) seen.quarantined += 1;
    if (!valueMeant) seen.valuesRefused += 1;
    if (!isIso(r.cost_currency)) seen.notMoney += 1;
    const images = (x: {
      image_url?: unknown;
      meta_data?: { image_url?: unknown; image_urls?: Record<string, unknown> };
    }) =>
      [x.image_url, x.meta_data?.image_url, ...Object.values(x.meta_data?.image_urls ?? {})].filter(
        (u) => typeof u === 'string' && u !== '',
      ).length;
    seen.imagesDropped += images(original) - images(r);
  }
}

async function check(state: PanelState): Promise<void> {
  await serve(state);
  fakeBrowser.reset();
  await connectTo(panel);
  const api = createPanelApi({ baseUrl: panel.url, token: panel.token, timeoutMs: 1000, retryBaseDelayMs: 1 });

  const listed = await settle(api.listRewards());
  // Neither one record nor a balance the panel cannot mean refuses the read: only a redirect does.
  if (state.redirect?.path !== ENDPOINTS.rewards)
    expect(listed, 'the rewards read').not.toBeInstanceOf(AppErrorException);
  if (!(listed instanceof AppErrorException)) {
    const points = isImpossible(listed.balance) ? null : listed.balance;
    checkRows(listed.rewards, points, 'listRewards');
    checkQuarantine(listed.rewards, state, 'listRewards');
    for (const r of listed.rewards) {
      checkImages(r, `listRewards ${r.id}`);
      await checkHtml(r, `listRewards ${r.id}`);
    }
    expect(points === null || isPoints(points), `balance ${String(points)}`).toBe(true);
  }
  const values = await settle(api.readValues());
  if (!(values instanceof AppErrorException) && !isImpossible(values.balance))
    expect(values.balance === null || isPoints(values.balance), `balance ${String(values.balance)}`).toBe(true);
  if (!isPoints(state.balance)) {
    const [answer, path] =
      state.balanceIn === 'rewards' ? [listed, ENDPOINTS.rewards] : [values, ENDPOINTS.variablesData];
    seen.balancesNotRead += 1;
    if (state.redirect?.path !== path)
      expect(
        (answer as { balance: BodyBalance }).balance,
        `an impossible balance (${state.balance}) at ${path} is told so, its answer kept`,
      ).toMatchObject({ impossible: { kind: 'unexpected', endpoint: path } });
  }

  const history = await settle(api.listRedemptions());
  if (state.redirect?.path !== ENDPOINTS.redemptions)
    expect(history, 'the history read').not.toBeInstanceOf(AppErrorException);
  if (!(history instanceof AppErrorException)) checkHistory(history, state);

  // Redeem a reward only when the panel's cost is one it can mean, as the pages and the background do.
  const redeemable = listed instanceof AppErrorException ? undefined : listed.rewards.find((r) => !r.costRefused);
  if (redeemable) await settle(api.redeem(redeemable.id));

  // The background's own refresh, into storage.
  await settle(refreshRewards(true));
  await balanceIdle();
  const stored = await rewardsItem.getValue();
  if (stored) {
    checkRows(stored.data.rewards, stored.data.balance.points, 'stored');
    for (const r of stored.data.rewards) checkImages(r, `stored ${r.id}`);
    expect(stored.data.balance.points === null || isPoints(stored.data.balance.points)).toBe(true);
    // Not read: never "none" (a panel showing no balance), and no later place stood in for it.
    if (!isPoints(state.balance)) expect(stored.data.balance, 'an impossible balance stored').toEqual(UNREAD_BALANCE);
  }
  const storedHtml = await rewardHtmlItem.getValue();
  for (const url of storedHtml?.imageOrigins ?? []) expect(url).toMatch(/^https?:\/\//);
  for (const sample of await balanceHistoryItem.getValue())
    expect(isPoints(sample.points), `history point ${sample.points}`).toBe(true);

  await checkProfile(state);

  await Promise.all([panel.idle(), elsewhere.idle()]);
  expect(elsewhere.requests, 'a request reached the other server').toEqual([]);
}

/** Redemptions: each read on its own, never a figure the panel cannot mean, never a guessed state. */
function checkHistory(history: readonly Redemption[], state: PanelState): void {
  const sent = redemptions(state);
  expect(new Set(history.map((r) => r.id))).toEqual(new Set(sent.map((r) => String(r.id))));
  expect(history).toHaveLength(sent.length);
  for (const r of history) {
    checkImages(r.reward, `history ${r.id}`);
    const original = sent.find((s) => String(s.id) === r.id)!;
    if (!isIso(r.currency))
      expect(formatMoney(r.cost, r.currency), `history ${r.id}: ${JSON.stringify(r.currency)}`).toBeNull();
    expect(r.cost === null || isAmountOf(r.cost, r.currency), `history ${r.id}: value ${r.cost}`).toBe(true);
    expect(r.reward_point_cost, `history ${r.id}: points`).toBe(
      isPoints(original.reward_point_cost) ? original.reward_point_cost : null,
    );
    if (r.reward_point_cost === null) seen.pointsSpentUnknown += 1;
    const flagsRead = typeof original.processed === 'boolean' && typeof original.refunded === 'boolean';
    expect(r.stateUnreadable === true, `history ${r.id}: state unread`).toBe(!flagsRead);
    if (!flagsRead) seen.statesUnread += 1;
  }
}

/**
 * The profile: one question the extension cannot mean never refuses the read, is never writable
 * nor open; names are data, so every question's answer is its own (`__proto__` included) and
 * nothing reaches Object.prototype.
 */
async function checkProfile(state: PanelState): Promise<void> {
  const read = await settle(refreshProfile(true));
  // Only a redirect refuses it: the profile does not use the balance beside the answers.
  const mayFail = state.redirect?.path === ENDPOINTS.variablesData;
  if (!mayFail) expect(read, 'the profile read').not.toBeInstanceOf(AppErrorException);
  expect(Object.keys(Object.prototype), 'Object.prototype').toEqual([]);
  if (read instanceof AppErrorException) return;
  const byName = new Map(read.definitions.map((d) => [d.name, d]));
  for (const q of questions(state)) {
    const def = byName.get(q.name as string)!;
    expect(def, `question ${String(q.name)}`).toBeDefined();
    const meant =
      typeof q.writable === 'boolean' &&
      typeof q.type === 'string' &&
      // No list at all reads as no options (the interface's free-form questions).
      (q.options === null ||
        (Array.isArray(q.options) && q.options.every((o: { id?: unknown }) => Number.isSafeInteger(o.id))));
    expect(def.unreadable === true, `question ${def.name}: ${JSON.stringify(q)}`).toBe(!meant);
    expect(def.writable, `question ${def.name}: writable`).toBe(meant && q.writable === true);
    if (!meant) seen.questionsUnreadable += 1;
    if (Object.hasOwn(Object.prototype, def.name)) seen.objectNames += 1;
  }
  // Each answer is its own name's: what the panel stored under it, or nothing.
  const stored = answers(state);
  const values: StoredValues = read.values;
  for (const name of VARIABLE_NAMES) {
    const own = Object.getOwnPropertyDescriptor(values, name)?.value as unknown;
    if (!Object.hasOwn(stored, name)) expect(own, `answer to ${name}`).toBeUndefined();
    else if (own !== undefined)
      expect(typeof own === 'string' || typeof own === 'number' || Array.isArray(own)).toBe(true);
  }
  const count = completeness(read.definitions, values);
  for (const name of count.open) expect(byName.get(name)?.writable, `open question ${name}`).toBe(true);
  expect(count.total).toBe(read.definitions.filter((d: VariableDefinition) => d.writable).length);
  expect(count.answered + count.open.length).toBe(count.total);
}

it(`panel answers, fuzzed: nothing impossible is shown, stored or acted on, and nothing reaches another server (${RUNS} runs, seed ${SEED})`, async () => {
  const started = performance.now();
  let runs = 0;
  await fc.assert(
    fc.asyncProperty(panelState, async (state) => {
      runs += 1;
      await check(state);
    }),
    {
      numRuns: RUNS,
      seed: SEED,
      ...(process.env.FUZZ_PATH ? { path: process.env.FUZZ_PATH } : {}),
      // The message names the seed, the path and the shrunk panel: print it whole.
      verbose: 1,
      endOnFailure: process.env.FUZZ_SHRINK === undefined,
    },
  );
  console.log(
    `panel fuzz: ${runs} runs in ${((performance.now() - started) / 1000).toFixed(1)} s (seed ${SEED}); exercised ${JSON.stringify(seen)}`,
  );
  // The fixed seed draws every kind of hostile answer; a change of the generators that stopped drawing one would show here.
  for (const [kind, count] of Object.entries(seen)) expect(count, kind).toBeGreaterThan(0);
  expect(elsewhere.requests).toEqual([]);
}, 120_000);
