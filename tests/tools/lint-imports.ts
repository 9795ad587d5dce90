/**
 * `npm run lint:imports` (and a step of `npm test`): the import rules of the product code.
 *
 * - no circular imports, type-only ones included (a circle blurs which module owns what);
 * - utils/ never imports components/ or entrypoints/, and components/ never imports entrypoints/:
 *   shared code does not reach up into what uses it;
 * - no runtime module (entrypoints/, components/, utils/ outside utils/build/) imports build-time
 *   code (utils/build/), except for a type: a type-only import brings no code into a bundle, and the
 *   pages' settings type is derived from the operator's settings table.
 *
 * Why not dependency-cruiser: it reads TypeScript through TypeScript's JavaScript API, which
 * TypeScript 7 does not have, and its swc parser reads no TSX. Babel's parser reads both, keeps
 * type-only imports in its tree, and is all this needs: every import here is a relative path.
 */
import { parse } from '@babel/parser';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

const ROOT = process.cwd();
const DIRS = ['entrypoints', 'components', 'utils'];
const FILES = ['wxt.config.ts'];

interface Edge {
  from: string;
  to: string;
  line: number;
  typeOnly: boolean;
}

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = normalize(join(dirname(from), specifier))
    .split('\\')
    .join('/');
  return (
    ['', '.ts', '.tsx', '/index.ts', '/index.tsx']
      .map((ext) => base + ext)
      .find((path) => /\.tsx?$/.test(path) && existsSync(join(ROOT, path))) ?? null
  );
}

type Node = { type?: string; loc?: { start: { line: number } }; [key: string]: unknown };

/** Every import of `path`: static, re-exports, `import()` and `typeof import()`. */
function importsOf(path: string): Edge[] {
  const text = readFileSync(join(ROOT, path), 'utf8');
  const ast = parse(text, {
    sourceType: 'module',
    plugins: path.endsWith('.tsx') ? ['typescript', 'jsx'] : ['typescript'],
  });
  const edges: Edge[] = [];
  const add = (node: Node, specifier: unknown, typeOnly: boolean) => {
    if (typeof specifier !== 'string') return;
    const to = resolveImport(path, specifier);
    if (to) edges.push({ from: path, to, line: node.loc?.start.line ?? 0, typeOnly });
  };
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const n = node as Node;
    const source = (n.source as Node | undefined)?.value;
    const specifiers = (n.specifiers as Node[] | undefined) ?? [];
    const allTypes =
      specifiers.length > 0 && specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type');
    if (n.type === 'ImportDeclaration') add(n, source, n.importKind === 'type' || allTypes);
    else if (n.type === 'ExportNamedDeclaration' || n.type === 'ExportAllDeclaration')
      add(n, source, n.exportKind === 'type' || allTypes);
    else if (n.type === 'CallExpression' && (n.callee as Node).type === 'Import')
      add(n, (n.arguments as Node[])[0]?.value, false);
    else if (n.type === 'TSImportType')
      add(n, ((n.argument as Node).literal as Node | undefined)?.value ?? (n.argument as Node).value, true);
    for (const [key, value] of Object.entries(n)) if (key !== 'loc' && key !== 'start' && key !== 'end') walk(value);
  };
  walk(ast.program);
  return edges;
}

/** Each circle once, as the path that closes it (Tarjan's strongly connected components). */
function circles(graph: Map<string, Edge[]>): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const { to } of graph.get(v) ?? []) {
      if (!order.has(to)) {
        visit(to);
        low.set(v, Math.min(low.get(v)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(v, Math.min(low.get(v)!, order.get(to)!));
    }
    if (low.get(v) !== order.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    const selfLoop = (graph.get(v) ?? []).some((e) => e.to === v);
    if (component.length > 1 || selfLoop) found.push(component.reverse());
  };
  for (const v of graph.keys()) if (!order.has(v)) visit(v);
  return found;
}

const RUNTIME = /^(entrypoints|components|utils)\//;
const BUILD = /^utils\/build\//;
const RULES: { name: string; breaks(edge: Edge): boolean }[] = [
  {
    name: 'utils/ imports components/ or entrypoints/',
    breaks: (e) => e.from.startsWith('utils/') && /^(components|entrypoints)\//.test(e.to),
  },
  {
    name: 'components/ imports entrypoints/',
    breaks: (e) => e.from.startsWith('components/') && e.to.startsWith('entrypoints/'),
  },
  {
    name: 'a runtime module imports build-time code (utils/build/)',
    breaks: (e) => RUNTIME.test(e.from) && !BUILD.test(e.from) && BUILD.test(e.to) && !e.typeOnly,
  },
];

const files = [...DIRS.flatMap(sources), ...FILES];
const graph = new Map(files.map((path) => [path, importsOf(path)]));
const problems: string[] = [];
for (const edges of graph.values()) {
  for (const edge of edges) {
    for (const rule of RULES)
      if (rule.breaks(edge)) problems.push(`${edge.from}:${edge.line}: ${rule.name}: ${edge.to}`);
  }
}
for (const component of circles(graph)) {
  // One circle through the component's first module, the shortest; the rest of the component after it.
  const inside = new Set(component);
  const start = component[0]!;
  const back = new Map<string, string>();
  const queue = [start];
  let closing: string | undefined;
  while (queue.length && !closing) {
    const v = queue.shift()!;
    for (const { to } of graph.get(v) ?? []) {
      if (to === start) closing = v;
      else if (inside.has(to) && !back.has(to)) {
        back.set(to, v);
        queue.push(to);
      }
    }
  }
  const path = [start];
  for (let v = closing; v && v !== start; v = back.get(v)) path.splice(1, 0, v);
  const others = component.filter((v) => !path.includes(v));
  problems.push(
    `circular imports: ${[...path, start].join(' → ')}${others.length ? ` (and through ${others.length > 5 ? `${others.length} more modules` : others.join(', ')})` : ''}`,
  );
}

const edgeCount = [...graph.values()].reduce((sum, edges) => sum + edges.length, 0);
if (problems.length) {
  console.error(problems.join('\n'));
  console.error(
    `${problems.length} import rule${problems.length === 1 ? '' : 's'} broken (${files.length} files, ${edgeCount} imports)`,
  );
  process.exit(1);
}
console.log(`imports: ${files.length} files, ${edgeCount} imports, no circle, every rule kept`);
