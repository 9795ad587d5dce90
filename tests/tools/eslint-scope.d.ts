/** eslint-scope ships no types; the API audit (api-audit.ts) uses `analyze` only and reads its result as it declares. */
declare module 'eslint-scope' {
  export function analyze(ast: unknown, options?: { ecmaVersion?: number; sourceType?: 'module' | 'script' }): unknown;
}
