import type { Plugin } from 'vite';

const FIRST_FRAME_SCRIPT = '<script src="/first-frame.js"></script>';

/**
 * Build step (wxt.config.ts): the app's module script is started by the first-frame script once the
 * first frame is painted, not by the page: run as the page is parsed, the module (Preact and the
 * app) would be evaluated before the first frame's storage read comes back and hold it up. Its
 * address goes on the first-frame script's tag (`data-app`); its modulepreload links stay, so it is
 * fetched meanwhile. Development builds keep the page's own module script.
 */
export function appAfterFirstFrame(): Plugin {
  return {
    name: 'panel:app-after-first-frame',
    // WXT's development server writes its pages through a build too; those keep their scripts.
    apply: (_, env) => env.command === 'build' && env.mode !== 'development',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        // The popup's own entry chunk (chunks/popup-<hash>.js), named after its entrypoint.
        const entry = /<script type="module"[^>]*\ssrc="(\/chunks\/popup-[^"]+\.js)"[^>]*><\/script>\s*/.exec(html);
        if (!entry || !html.includes(FIRST_FRAME_SCRIPT)) return html;
        // The app's chunks are preloaded by the first-frame script once the header is painted: named
        // in the page, their fetch and compile would compete with the header's stylesheet and script.
        const preloads = [...html.matchAll(/<link rel="modulepreload"[^>]*\shref="([^"]+)"[^>]*>\s*/g)];
        const rest = preloads
          .reduce((page, link) => page.replace(link[0], ''), html.replace(entry[0], ''))
          // The page's comments are for its readers, in the source: every opening would load them.
          .replace(/\s*<!--[\s\S]*?-->/g, '');
        const preload = preloads.length ? ` data-preload="${preloads.map((link) => link[1]).join(' ')}"` : '';
        return rest.replace(
          FIRST_FRAME_SCRIPT,
          `<script src="/first-frame.js" data-app="${entry[1]}"${preload}></script>`,
        );
      },
    },
  };
}
