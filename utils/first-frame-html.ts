import { resolve } from 'node:path';
import { runnerImport, type Plugin } from 'vite';

/** Markup is all the templates need: the components' stylesheets are the page's business. */
const noStyles: Plugin = {
  name: 'panel:first-frame-no-styles',
  enforce: 'pre',
  resolveId: (id) => (id.endsWith('.css') ? '\0first-frame-style' : null),
  load: (id) => (id === '\0first-frame-style' ? 'export default ""' : null),
};

/** Where popup.html wants the first frame's templates. */
const PLACEHOLDER = '<!-- first-frame templates -->';

/**
 * Build step (wxt.config.ts): renders the popup's first-frame templates from its own components
 * (components/popup/frame-templates.tsx, with Preact's prerendering, preact-render-to-string) into
 * popup.html, so the markup the first-frame script fills and the markup Preact takes over come from
 * the same components and cannot drift (issue 19). `define` is the pages' own (the build settings).
 */
export function firstFrameTemplates(define: Record<string, string>): Plugin {
  return {
    name: 'panel:first-frame-templates',
    transformIndexHtml: {
      order: 'pre',
      async handler(html) {
        if (!html.includes(PLACEHOLDER)) return html;
        const { module } = await runnerImport<typeof import('../components/popup/frame-templates')>(
          resolve(import.meta.dirname ?? '.', '../components/popup/frame-templates.tsx'),
          { configFile: false, define, logLevel: 'error', plugins: [noStyles] },
        );
        return html.replace(PLACEHOLDER, module.renderTemplates());
      },
    },
  };
}
