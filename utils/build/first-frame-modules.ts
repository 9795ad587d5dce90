import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parseAst, type Plugin, type Rolldown } from 'vite';
import { unpaintable } from './first-frame-paintable';

const ROOT = resolve(import.meta.dirname ?? '.', '../..');
const FIRST_FRAME_ENTRY = resolve(ROOT, 'entrypoints/first-frame.ts');
const POPUP_ENTRY = resolve(ROOT, 'entrypoints/popup/main.tsx');
/** Everything the options page may load keeps its own code: it has no first-frame script. */
const OPTIONS_ENTRY = resolve(ROOT, 'entrypoints/options/main.tsx');
/** Where the first-frame script leaves what the app takes from it: one table, key → export. */
const GLOBAL = '__panelFirstFrameModules';
const FACADE = '\0first-frame-module:';

/**
 * The package modules the first-frame script hands over too, with what it hands: Preact's JSX
 * runtime, which the views it renders call (components/popup/first-frame/render-dom.ts). The app's
 * JSX then makes its elements with the same runtime, so the page has one counter of element ids
 * however many views each side renders; Preact itself (render, hooks) is the app's alone.
 */
const PACKAGES: Record<string, readonly string[]> = { 'preact/jsx-runtime': ['jsx', 'jsxs', 'Fragment'] };
/** A package export's key in the table: `_` and its name (a module export's key is letters alone, keyAt). */
const packageKey = (name: string) => `_${name}`;
const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
/**
 * The n-th handed-over export's key: one or two letters, so the table and the app's reads of it stay
 * short (the first load carries each key twice). Both builds plan from the same files in the same
 * order (taken()), so they agree on every key.
 */
const keyAt = (n: number) =>
  (n < LETTERS.length ? '' : LETTERS.charAt(Math.floor(n / LETTERS.length) - 1)) + LETTERS.charAt(n % LETTERS.length);
/**
 * What the JSX runtime takes from Preact, in the first-frame script: an options object (whose
 * `vnode` hook no one sets there) and a Fragment. Preact's own would bring all of Preact (its
 * options reach its diff), which the script never runs; the elements the runtime makes carry
 * Preact's own marker (a registered symbol), so the app's Preact renders them as its own.
 */
const JSX_PREACT = '\0first-frame-jsx-preact';
const JSX_PREACT_CODE = 'export const options = {};\nexport function Fragment(props) { return props.children; }\n';
/**
 * What the first-frame script must never hold: Preact itself (state, hooks, the diff) and code it
 * would load later: a view it paints that needs one of them fails the build (checkFirstFrame).
 */
const NOT_IN_FIRST_FRAME = /\/node_modules\/preact\/(dist|hooks|compat|debug|devtools)\//;

/** Names taken from a module; '*' for all of them. */
type Names = Set<string> | '*';

interface Source {
  /** The project files it imports at run time (type-only imports left out), with the names it takes. */
  statics: Array<{ file: string; names: Names }>;
  dynamics: string[];
}

/** Read once per build command, so the script's build and the app's build plan from the same files. */
const sources = new Map<string, Source>();

/** The project file a relative specifier names, or undefined (a package, a stylesheet, a virtual module). */
function fileOf(specifier: string, from: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(from, '..', specifier);
  return ['', '.ts', '.tsx', '/index.ts', '/index.tsx']
    .map((ext) => base + ext)
    .find((f) => /\.tsx?$/.test(f) && existsSync(f));
}

// oxc's ESTree, read loosely: only import and export declarations and import() are looked at.
type Node = { type: string; [key: string]: any };

const typeOnly = (n: Node) =>
  n.importKind === 'type' ||
  n.exportKind === 'type' ||
  (n.specifiers?.length > 0 && n.specifiers.every((s: Node) => s.importKind === 'type' || s.exportKind === 'type'));

/** What one import or re-export declaration takes from its module. */
function namesOf(node: Node): Names {
  if (node.type === 'ExportAllDeclaration') return '*';
  const names = new Set<string>();
  for (const s of node.specifiers as Node[]) {
    if (s.type === 'ImportNamespaceSpecifier') return '*';
    if (s.importKind === 'type' || s.exportKind === 'type') continue;
    names.add(
      s.type === 'ImportDefaultSpecifier' ? 'default' : s.type === 'ImportSpecifier' ? s.imported.name : s.local.name,
    );
  }
  return names;
}

const lang = (file: string) => (file.split('?')[0]!.endsWith('.tsx') ? 'tsx' : 'ts');

function source(file: string): Source {
  const known = sources.get(file);
  if (known) return known;
  const ast = parseAst(readFileSync(file, 'utf8'), { lang: lang(file) }) as unknown as {
    body: Node[];
  };
  const found: Source = { statics: [], dynamics: [] };
  for (const node of ast.body) {
    const from =
      node.type === 'ImportDeclaration' ||
      node.type === 'ExportAllDeclaration' ||
      node.type === 'ExportNamedDeclaration'
        ? node.source
        : null;
    const dep = from && !typeOnly(node) ? fileOf(from.value, file) : undefined;
    if (dep) found.statics.push({ file: dep, names: namesOf(node) });
  }
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (!value || typeof value !== 'object') return;
    const node = value as Node;
    const dep =
      node.type === 'ImportExpression' && node.source?.type === 'Literal' ? fileOf(node.source.value, file) : undefined;
    if (dep) found.dynamics.push(dep);
    for (const key in node) if (key !== 'type') walk(node[key]);
  };
  walk(ast.body);
  sources.set(file, found);
  return found;
}

/** The project files `entry` reaches (itself included), through import() too when asked, never into `stop`. */
function reach(entry: string, dynamic: boolean, stop = new Set<string>()): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || stop.has(file)) return;
    seen.add(file);
    const { statics, dynamics } = source(file);
    statics.forEach((s) => visit(s.file));
    if (dynamic) dynamics.forEach(visit);
  };
  visit(entry);
  return seen;
}

const keyOf = (file: string) => relative(ROOT, file).replaceAll('\\', '/');

/**
 * What the popup's app takes from the first-frame script's modules: for each module, the names the
 * app imports from it (by every module the app may load, the options page's aside: they keep their
 * own code), each with its key in the handed-over table (keyAt).
 */
function taken(): { handed: Map<string, Map<string, string>>; options: Set<string> } {
  const firstFrameFiles = reach(FIRST_FRAME_ENTRY, false);
  firstFrameFiles.delete(FIRST_FRAME_ENTRY);
  const options = reach(OPTIONS_ENTRY, true);
  const handed = new Map<string, Map<string, string>>();
  let count = 0;
  for (const file of reach(POPUP_ENTRY, true, firstFrameFiles)) {
    if (options.has(file)) continue;
    for (const { file: dep, names } of source(file).statics) {
      if (!firstFrameFiles.has(dep)) continue;
      if (names === '*')
        throw new Error(
          `${keyOf(file)} imports all of ${keyOf(dep)}: name what it takes, so the first-frame script hands over only that`,
        );
      const table = handed.get(dep) ?? new Map<string, string>();
      handed.set(dep, table);
      for (const name of names) if (!table.has(name)) table.set(name, keyAt(count++));
    }
  }
  return { handed, options };
}

/**
 * The first-frame script paints by calling the popup's views (render-dom.ts): a view that holds
 * state, or code that loads later, cannot be painted there, and would reach the script as a hook or
 * an import() (inlined into the classic script). Either fails the build, naming the module and who
 * imports it, rather than the popup opening on a frame that throws.
 */
function checkFirstFrame(ctx: Rolldown.PluginContext, bundle: Rolldown.OutputBundle): void {
  for (const chunk of Object.values(bundle)) {
    if (chunk.type !== 'chunk') continue;
    for (const id of chunk.moduleIds) {
      const info = ctx.getModuleInfo(id);
      const by = [...(info?.importers ?? []), ...(info?.dynamicImporters ?? [])].map((m) => keyOf(m)).join(', ');
      if (NOT_IN_FIRST_FRAME.test(id))
        ctx.error(`the first-frame script holds ${keyOf(id)} (imported by ${by}): it paints with pure views alone`);
      if (info && info.importers.length === 0 && info.dynamicImporters.length > 0)
        ctx.error(`the first-frame script holds ${keyOf(id)}, loaded later by ${by}: it paints with what it has`);
    }
  }
}

/**
 * Build step (wxt.config.ts): what the popup's app needs of the modules the first-frame
 * script already holds (its models, formatting, words, storage items) is not shipped twice. The
 * first-frame script (entrypoints/first-frame.ts) leaves those exports in one table on the page's
 * global object; in the app each import of such a module becomes a facade that takes them from
 * there, so the page has one copy of each module, its state included. The app runs only after that
 * script (it is started from there, utils/build/first-frame-html.ts). The options page has no first-frame
 * script: the modules it may load keep their own code, and the build fails if a facade ever reaches
 * it. Release builds only, as the app's start from the first-frame script.
 */
export function firstFrameModules(): Plugin {
  let role: 'expose' | 'take' | undefined;
  let handed = new Map<string, Map<string, string>>();
  let options = new Set<string>();
  return {
    name: 'panel:first-frame-modules',
    // Before Vite's own resolver, which would find the module's file first.
    enforce: 'pre',
    apply: (_, env) => env.command === 'build' && env.mode !== 'development',
    configResolved(config) {
      const lib = config.build.lib;
      const input = config.build.rollupOptions.input;
      const entries = (
        lib
          ? [lib.entry].flat()
          : typeof input === 'object' && !Array.isArray(input)
            ? Object.values(input)
            : [input].flat()
      ).map(String);
      // WXT's own virtual entry module names the script's file after a '?'.
      if (entries.some((e) => e.endsWith(FIRST_FRAME_ENTRY))) role = 'expose';
      else if (entries.some((e) => resolve(e) === resolve(ROOT, 'entrypoints/popup/index.html'))) role = 'take';
      if (role) ({ handed, options } = taken());
    },
    transform(code, id) {
      if (role !== 'expose') return null;
      // Each view the script paints is checked as it comes in: what the renderer cannot paint fails here.
      if (id !== FIRST_FRAME_ENTRY) {
        const problems = id.startsWith(ROOT) && !id.includes('/node_modules/') ? unpaintable(code, lang(id)) : [];
        if (problems.length) this.error(`${keyOf(id)}: the first-frame script cannot paint\n${problems.join('\n')}`);
        return null;
      }
      const modules: Array<[string, Map<string, string>]> = [
        ...handed,
        ...Object.entries(PACKAGES).map(
          ([pkg, names]) =>
            [pkg, new Map(names.map((name) => [name, packageKey(name)]))] as [string, Map<string, string>],
        ),
      ];
      const imports = modules.map(
        ([file, names], i) =>
          `import { ${[...names.keys()].map((name) => `${name} as m${i}_${name}`).join(', ')} } from ${JSON.stringify(file)};`,
      );
      const table = modules.flatMap(([, names], i) =>
        [...names].map(([name, key]) => `${JSON.stringify(key)}: m${i}_${name}`),
      );
      return { code: `${code}\n${imports.join('\n')}\nglobalThis.${GLOBAL} = { ${table.join(', ')} };\n`, map: null };
    },
    resolveId(specifier, importer) {
      if (role === 'expose')
        return specifier === 'preact' && importer?.includes('/node_modules/preact/jsx-runtime/') ? JSX_PREACT : null;
      if (role !== 'take' || !importer || importer.startsWith('\0') || options.has(importer)) return null;
      if (specifier in PACKAGES) return `${FACADE}${specifier}`;
      const file = fileOf(specifier, importer);
      return file && handed.has(file) ? FACADE + keyOf(file) : null;
    },
    load(id) {
      if (role === 'expose' && id === JSX_PREACT) return JSX_PREACT_CODE;
      if (role !== 'take' || !id.startsWith(FACADE)) return null;
      const key = id.slice(FACADE.length);
      const names =
        key in PACKAGES
          ? new Map(PACKAGES[key]!.map((name) => [name, packageKey(name)]))
          : handed.get(resolve(ROOT, key))!;
      const value = (name: string) => `table[${JSON.stringify(name)}]`;
      const exports = [...names].map(([name, at]) =>
        name === 'default' ? `export default ${value(at)};` : `export const ${name} = ${value(at)};`,
      );
      // One read of the table per facade, not one per name. (One module of it for all facades would be a
      // chunk of its own, shared by the app and its lazy parts: one more request.)
      return [`const table = globalThis.${GLOBAL};`, ...exports].join('\n');
    },
    generateBundle(_, bundle) {
      if (role === 'expose') return checkFirstFrame(this, bundle);
      if (role !== 'take') return;
      const chunks = new Map(
        Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [[c.fileName, c] as const] : [])),
      );
      const seen = new Set<string>();
      const visit = (name: string) => {
        const chunk = chunks.get(name);
        if (!chunk || seen.has(name)) return;
        seen.add(name);
        const facade = chunk.moduleIds.find((m) => m.startsWith(FACADE));
        if (facade)
          this.error(`${facade.slice(FACADE.length)} reaches the options page as a first-frame facade (${name})`);
        [...chunk.imports, ...chunk.dynamicImports].forEach(visit);
      };
      for (const chunk of chunks.values()) if (chunk.isEntry && chunk.name === 'options') visit(chunk.fileName);
    },
  };
}
