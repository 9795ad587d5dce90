/**
 * The API audit: which extension APIs the built bundles use, and which of them
 * Chrome, Firefox and Firefox for Android lack at the manifest's minimum versions, by MDN's
 * browser-compat-data (the package ships the data; nothing is fetched).
 *
 * Why the built bundles and not the sources: what runs is the bundle, libraries included (WXT's
 * storage, @webext-core/messaging, the polyfill), and a library's call is as much a use as ours.
 * Why a parser and scopes, not a text search: minified code reaches the APIs through aliases
 * (`let t=c.default.identity; … t.launchWebAuthFlow(…)`, `p=()=>g.browser?.storage??g.chrome?.storage;
 * p().onChanged…`, `Fl=c.default.action??c.default.browserAction; Fl.setBadgeText(…)`), and its
 * one-letter names are reused in every function, so an alias is followed only where eslint-scope
 * says the name is that variable. What is found:
 *
 * - `browser`, `chrome`, `globalThis.browser` (also through `self`, `window` or a variable holding
 *   `globalThis`), a module's `default` export (the polyfill's) followed by a namespace, and any
 *   variable, `??`/`||`/`?:` branch, destructuring or function result that holds one of these;
 * - a namespace of MDN's list reached from those, and a member of that namespace named in MDN's
 *   data (`tabs.create`, `storage.onChanged`, `runtime.lastError`);
 * - `<anything>.<namespace>.<member>` written out, where the receiver cannot be followed (a
 *   function's parameter, as in the polyfill's wrapper of `chrome`).
 *
 * Not found: a member reached with a computed name (`browser[x]`): none is in our code, and the
 * test counts such sites on the browser object so a new one is seen (`computed`).
 *
 * `npx tsx tests/tools/api-audit.ts DIR…` prints the table for built extensions.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { parse } from 'acorn';
import { analyze } from 'eslint-scope';
import type * as ES from 'estree';

/** MDN's data of one feature, as much as is read here. */
interface SimpleSupport {
  version_added: string | boolean | null;
  version_removed?: string | boolean | null;
  flags?: unknown[];
  prefix?: string;
  alternative_name?: string;
  partial_implementation?: boolean;
  notes?: string | string[];
}
interface Feature {
  __compat?: { support: Record<string, SimpleSupport | SimpleSupport[]> };
  [member: string]: unknown;
}

const require = createRequire(import.meta.url);
/** `webextensions.api` of MDN's data: namespace → member → support. */
export function compatData(): Record<string, Feature> {
  const path = require.resolve('@mdn/browser-compat-data');
  return (JSON.parse(readFileSync(path, 'utf8')) as { webextensions: { api: Record<string, Feature> } }).webextensions
    .api;
}

export function bcdVersion(): string {
  const data = JSON.parse(readFileSync(require.resolve('@mdn/browser-compat-data'), 'utf8')) as {
    __meta: { version: string };
  };
  return data.__meta.version;
}

export const TARGETS = ['chrome', 'firefox', 'firefox_android'] as const;
export type Target = (typeof TARGETS)[number];

/** An API the bundle uses: `namespace` alone (reached, members unseen) or `namespace.member`. */
export interface Use {
  api: string;
  files: string[];
}

type Value =
  | { kind: 'global' }
  | { kind: 'root' }
  | { kind: 'ns'; ns: string; strong: boolean }
  | { kind: 'fn'; node: ES.Function };

type AnyNode = ES.Node & { parent?: AnyNode };

const GLOBAL_NAMES = new Set(['globalThis', 'self', 'window']);
const ROOT_NAMES = new Set(['browser', 'chrome']);

/** Every node of a tree, each given its parent. */
function walk(node: AnyNode, visit: (node: AnyNode) => void, parent?: AnyNode): void {
  node.parent = parent;
  visit(node);
  for (const key of Object.keys(node)) {
    if (key === 'parent') continue;
    const child = (node as unknown as Record<string, unknown>)[key];
    if (Array.isArray(child)) {
      for (const c of child) if (c && typeof (c as AnyNode).type === 'string') walk(c as AnyNode, visit, node);
    } else if (child && typeof (child as AnyNode).type === 'string' && key !== 'loc') {
      walk(child as AnyNode, visit, node);
    }
  }
}

function propertyName(node: ES.MemberExpression): string | null {
  if (!node.computed && node.property.type === 'Identifier') return node.property.name;
  if (node.computed && node.property.type === 'Literal' && typeof node.property.value === 'string')
    return node.property.value;
  return null;
}

interface Variable {
  name: string;
  defs: Array<{ type: string; name: ES.Identifier; node: AnyNode }>;
  references: Array<{ isWrite(): boolean; writeExpr?: ES.Expression | null; identifier: ES.Identifier }>;
}
interface Reference {
  identifier: ES.Identifier;
  resolved: Variable | null;
}

/** The APIs one bundle file uses, by following values through its scopes. */
export function usesInCode(code: string, namespaces: Record<string, Feature>): { uses: Set<string>; computed: number } {
  let ast: ES.Program;
  let sourceType: 'module' | 'script' = 'module';
  try {
    ast = parse(code, { ecmaVersion: 'latest', sourceType, ranges: true }) as unknown as ES.Program;
  } catch {
    sourceType = 'script';
    ast = parse(code, { ecmaVersion: 'latest', sourceType, ranges: true }) as unknown as ES.Program;
  }
  const nodes: AnyNode[] = [];
  walk(ast, (n) => nodes.push(n));
  const scopes = analyze(ast, { ecmaVersion: 2022, sourceType }) as { scopes: Array<{ references: Reference[] }> };
  const refs = new Map<ES.Identifier, Reference>();
  for (const scope of scopes.scopes) for (const ref of scope.references) refs.set(ref.identifier, ref);

  const uses = new Set<string>();
  const memo = new Map<AnyNode, Value[]>();
  const active = new Set<AnyNode>();
  let computed = 0;
  const isNs = (name: string) => Object.hasOwn(namespaces, name) && name !== '__compat';
  const isMember = (ns: string, name: string) => name !== '__compat' && Object.hasOwn(namespaces[ns] ?? {}, name);

  function valueOf(node: AnyNode | null | undefined): Value[] {
    if (!node) return [];
    const known = memo.get(node);
    if (known) return known;
    if (active.has(node)) return [];
    active.add(node);
    const value = compute(node);
    active.delete(node);
    memo.set(node, value);
    return value;
  }

  function ofVariable(variable: Variable): Value[] {
    const out: Value[] = [];
    for (const def of variable.defs) {
      if (def.type === 'FunctionName') out.push({ kind: 'fn', node: def.node as unknown as ES.Function });
      if (def.type === 'Variable' && def.node.type === 'VariableDeclarator') {
        const declarator = def.node;
        out.push(...fromPattern(declarator.id, def.name, valueOf(declarator.init)));
      }
    }
    // Later assignments (`a=globalThis` after `var a`).
    for (const ref of variable.references) {
      if (ref.isWrite() && ref.writeExpr && (ref.identifier as AnyNode).parent?.type === 'AssignmentExpression')
        out.push(...valueOf(ref.writeExpr));
    }
    return out;
  }

  /** `const { identity } = browser`: the value at the identifier's place in the pattern. */
  function fromPattern(pattern: ES.Pattern, target: ES.Identifier, init: Value[]): Value[] {
    if (pattern === target || (pattern.type === 'Identifier' && pattern === target)) return init;
    if (pattern.type === 'AssignmentPattern') return fromPattern(pattern.left, target, init);
    if (pattern.type === 'ObjectPattern') {
      for (const prop of pattern.properties) {
        if (prop.type !== 'Property' || prop.computed || prop.key.type !== 'Identifier') continue;
        const inner = fromPattern(prop.value, target, member(init, prop.key.name));
        if (inner.length || contains(prop.value, target)) return inner;
      }
    }
    return [];
  }

  function contains(node: ES.Node, target: ES.Node): boolean {
    let found = false;
    walk(node, (n) => (found ||= n === target), (node as AnyNode).parent);
    return found;
  }

  /** What `object.name` is, for each value `object` may be; records the uses it makes. */
  function member(object: Value[], name: string): Value[] {
    const out: Value[] = [];
    for (const v of object) {
      if (v.kind === 'global' && ROOT_NAMES.has(name)) out.push({ kind: 'root' });
      else if (v.kind === 'root' && isNs(name)) {
        uses.add(name);
        out.push({ kind: 'ns', ns: name, strong: true });
      } else if (v.kind === 'ns' && isMember(v.ns, name)) uses.add(`${v.ns}.${name}`);
    }
    return out;
  }

  function returnsOf(fn: ES.Function): Value[] {
    if (fn.body.type !== 'BlockStatement') return valueOf(fn.body);
    const out: Value[] = [];
    walk(
      fn.body,
      (n) => {
        if (n.type === 'ReturnStatement' && enclosingFunction(n) === fn) out.push(...valueOf(n.argument));
      },
      fn,
    );
    return out;
  }

  function enclosingFunction(node: AnyNode): AnyNode | undefined {
    let p = node.parent;
    while (p && !/Function/.test(p.type)) p = p.parent;
    return p;
  }

  function compute(node: AnyNode): Value[] {
    switch (node.type) {
      case 'Identifier': {
        const ref = refs.get(node);
        if (ref?.resolved) return ofVariable(ref.resolved);
        if (GLOBAL_NAMES.has(node.name)) return [{ kind: 'global' }];
        if (ROOT_NAMES.has(node.name)) return [{ kind: 'root' }];
        return [];
      }
      case 'ThisExpression':
        return [];
      case 'MemberExpression': {
        const name = propertyName(node);
        const object = valueOf(node.object);
        if (name === null) {
          if (object.some((v) => v.kind === 'root' || v.kind === 'ns')) computed++;
          return [];
        }
        const out = member(object, name);
        if (out.length || object.length) return out;
        // A receiver that cannot be followed: `x.default.<ns>` (the polyfill's export) is the API object,
        // and `x.<ns>.<member>` written out counts.
        if (name === 'default') return [{ kind: 'root' }];
        if (isNs(name)) return [{ kind: 'ns', ns: name, strong: false }];
        return [];
      }
      case 'ChainExpression':
        return valueOf(node.expression);
      case 'LogicalExpression':
        return [...valueOf(node.left), ...valueOf(node.right)];
      case 'ConditionalExpression':
        return [...valueOf(node.consequent), ...valueOf(node.alternate)];
      case 'SequenceExpression':
        return valueOf(node.expressions.at(-1));
      case 'AssignmentExpression':
        return valueOf(node.right);
      case 'AwaitExpression':
        return [];
      case 'CallExpression': {
        const callee = valueOf(node.callee);
        return callee.flatMap((v) => (v.kind === 'fn' ? returnsOf(v.node) : []));
      }
      case 'ArrowFunctionExpression':
      case 'FunctionExpression':
      case 'FunctionDeclaration':
        return [{ kind: 'fn', node: node as ES.Function }];
      default:
        return [];
    }
  }

  for (const node of nodes) if (node.type === 'MemberExpression') valueOf(node);
  // A namespace reached only through an unfollowed receiver is not a use unless a member followed.
  return { uses, computed };
}

/** Every .js file of a built extension. */
function scripts(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.js'))
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile())
    .sort();
}

export function usesInBuild(dir: string, namespaces = compatData()): { uses: Use[]; computed: number } {
  const byApi = new Map<string, Set<string>>();
  let computed = 0;
  for (const file of scripts(dir)) {
    const found = usesInCode(readFileSync(file, 'utf8'), namespaces);
    computed += found.computed;
    for (const api of found.uses) {
      const files = byApi.get(api) ?? new Set<string>();
      files.add(relative(dir, file));
      byApi.set(api, files);
    }
  }
  const uses = [...byApi]
    .map(([api, files]) => ({ api, files: [...files].sort() }))
    .sort((a, b) => a.api.localeCompare(b.api));
  return { uses, computed };
}

/** The minimum versions a built manifest declares (Chrome: see chromeFloor). */
export interface Minimums {
  chrome?: number;
  firefox?: number;
  firefox_android?: number;
}

interface Manifest {
  minimum_chrome_version?: string;
  browser_specific_settings?: {
    gecko?: { strict_min_version?: string };
    gecko_android?: { strict_min_version?: string };
  };
}

export function manifestMinimums(dir: string): Minimums {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  const major = (v?: string) => (v ? Number.parseInt(v, 10) : undefined);
  const gecko = manifest.browser_specific_settings?.gecko?.strict_min_version;
  return {
    chrome: major(manifest.minimum_chrome_version),
    firefox: major(gecko),
    firefox_android: major(manifest.browser_specific_settings?.gecko_android?.strict_min_version ?? gecko),
  };
}

/**
 * Chrome's manifest names no minimum_chrome_version: the oldest Chrome that can run it is the
 * newest one that knows each of its top-level keys (Manifest V3's `action` needs 88,
 * `optional_host_permissions` 102), by MDN's data of manifest keys.
 */
export function chromeFloor(dir: string): { version: number; key: string } {
  const path = require.resolve('@mdn/browser-compat-data');
  const keys = (JSON.parse(readFileSync(path, 'utf8')) as { webextensions: { manifest: Record<string, Feature> } })
    .webextensions.manifest;
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
  let floor = { version: 0, key: '' };
  for (const key of Object.keys(manifest)) {
    const support = keys[key]?.__compat?.support.chrome;
    const since = support ? firstVersion(support) : null;
    if (since !== null && since > floor.version) floor = { version: since, key };
  }
  return floor;
}

function num(v: string | boolean | null | undefined): number | null {
  if (typeof v !== 'string') return null;
  const n = Number.parseFloat(v.replace(/^≤/, ''));
  return Number.isFinite(n) ? n : null;
}

function statements(s: SimpleSupport | SimpleSupport[] | undefined): SimpleSupport[] {
  return s ? (Array.isArray(s) ? s : [s]) : [];
}

/** A statement that counts: no flag, no prefix, no other name. */
const plain = (s: SimpleSupport) => !s.flags?.length && !s.prefix && !s.alternative_name;

function firstVersion(support: SimpleSupport | SimpleSupport[]): number | null {
  const added = statements(support)
    .filter(plain)
    .map((s) => num(s.version_added))
    .filter((n): n is number => n !== null);
  return added.length ? Math.min(...added) : null;
}

export interface Verdict {
  supported: boolean;
  /** "since 102", "from 128 (needs 102)", "missing", "partial since 79", "unknown to MDN". */
  text: string;
}

export function verdict(feature: Feature | undefined, target: Target, version: number): Verdict {
  const support = feature?.__compat?.support[target];
  if (!support) return { supported: false, text: feature ? 'missing' : 'unknown to MDN' };
  for (const s of statements(support).filter(plain)) {
    const added = num(s.version_added);
    const removed = num(s.version_removed);
    if (added !== null && added <= version && (removed === null || removed > version)) {
      return { supported: true, text: `${s.partial_implementation ? 'partial ' : ''}since ${s.version_added}` };
    }
  }
  const later = firstVersion(support);
  return { supported: false, text: later !== null ? `from ${later}` : 'missing' };
}

export function featureOf(api: string, namespaces: Record<string, Feature>): Feature | undefined {
  const [ns, member] = api.split('.');
  const space = namespaces[ns ?? ''];
  return member ? (space?.[member] as Feature | undefined) : space;
}

export interface Row {
  api: string;
  files: string[];
  cells: Partial<Record<Target, Verdict>>;
}

/** The table: one row per API, one column per target the build is for. */
export function auditTable(
  uses: Use[],
  minimums: Record<Target, number | undefined>,
  namespaces = compatData(),
): Row[] {
  return uses.map(({ api, files }) => {
    const cells: Row['cells'] = {};
    for (const target of TARGETS) {
      const version = minimums[target];
      if (version !== undefined) cells[target] = verdict(featureOf(api, namespaces), target, version);
    }
    return { api, files, cells };
  });
}

export function formatTable(rows: Row[], minimums: Record<Target, number | undefined>): string {
  const targets = TARGETS.filter((t) => minimums[t] !== undefined);
  const head = ['API', ...targets.map((t) => `${t} ${minimums[t]}`)];
  const body = rows.map((r) => [
    r.api,
    ...targets.map((t) =>
      r.cells[t] ? (r.cells[t].supported ? r.cells[t].text : `MISSING (${r.cells[t].text})`) : '—',
    ),
  ]);
  const widths = head.map((_, i) => Math.max(...[head, ...body].map((line) => line[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\/tests\//, 'tests/'))) {
  const namespaces = compatData();
  for (const dir of process.argv.slice(2)) {
    const { uses } = usesInBuild(dir, namespaces);
    const declared = manifestMinimums(dir);
    const firefox = declared.firefox !== undefined;
    const minimums = {
      chrome: firefox ? undefined : (declared.chrome ?? chromeFloor(dir).version),
      firefox: declared.firefox,
      firefox_android: declared.firefox_android,
    };
    console.log(
      `${dir} (browser-compat-data ${bcdVersion()})\n${formatTable(auditTable(uses, minimums, namespaces), minimums)}\n`,
    );
  }
}
