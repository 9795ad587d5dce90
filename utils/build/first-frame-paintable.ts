import { parseAst } from 'vite';

// oxc's ESTree, read loosely: only JSX elements and their attributes are looked at.
type Node = { type: string; start: number; [key: string]: any };

/** Elements the first frame's renderer paints no rules for (components/popup/first-frame/render-dom.ts). */
const FOREIGN = new Set(['svg', 'math']);

/** Where a node starts, as `line:column` of `code`. */
function at(code: string, offset: number): string {
  const before = code.slice(0, offset).split('\n');
  return `${before.length}:${before.at(-1)!.length + 1}`;
}

/** Why one JSX attribute cannot be painted by the first frame's renderer, or null. */
function attributeProblem(attribute: Node): string | null {
  if (attribute.type !== 'JSXAttribute') return null;
  const name = attribute.name?.name as string | undefined;
  if (name === 'dangerouslySetInnerHTML') return 'markup (dangerouslySetInnerHTML): the first frame writes text only';
  // A string is an attribute like any other; an object needs Preact's style rules, which it has not.
  const value = attribute.value?.type === 'JSXExpressionContainer' ? attribute.value.expression : attribute.value;
  const text = !value || value.type === 'Literal' || value.type === 'TemplateLiteral';
  return name === 'style' && !text ? 'a style that is not written as a string (an object needs Preact’s rules)' : null;
}

/**
 * What in one source module (`code`, TSX) the first frame's renderer refuses to paint: SVG or MathML,
 * markup, a style that is not a string. The renderer would throw on it as the popup opens and the
 * popup would stay blank until Preact; the build names it instead (utils/build/first-frame-modules.ts
 * runs this on every module of the first-frame script). Empty when every element can be painted.
 */
export function unpaintable(code: string, lang: 'ts' | 'tsx'): string[] {
  if (lang !== 'tsx' || !code.includes('<')) return [];
  const problems: string[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (!value || typeof value !== 'object') return;
    const node = value as Node;
    if (node.type === 'JSXOpeningElement') {
      const tag = node.name?.type === 'JSXIdentifier' ? (node.name.name as string) : '';
      if (FOREIGN.has(tag)) problems.push(`${at(code, node.start)} <${tag}>: the first frame paints HTML only`);
      for (const attribute of node.attributes as Node[]) {
        const problem = attributeProblem(attribute);
        if (problem) problems.push(`${at(code, attribute.start)} <${tag}>: ${problem}`);
      }
    }
    for (const key in node) if (key !== 'type') walk(node[key]);
  };
  walk((parseAst(code, { lang }) as unknown as { body: Node[] }).body);
  return problems;
}
