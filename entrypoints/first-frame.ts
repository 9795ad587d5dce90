// First: its evaluation sends the storage read, before the rest of this script is evaluated.
import { firstRead } from '../components/popup/first-frame/read';
import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { holdEarlyClicks } from '../components/popup/first-frame/early-clicks';
import { paintFirstFrame } from '../components/popup/first-frame/first-frame';
import { applyBrand } from '../utils/brand';

/**
 * popup.html's first frame, so the balance is there at once: a classic script, no framework and no module graph, that
 * reads what the popup shows in ONE storage.local.get (sent first: read.ts) and paints it with the popup's own views
 * (components/popup/first-frame/), as text only: the header and the balance first, the parts below
 * them a frame later.
 * Then it starts the app (Preact, main.tsx), which takes over the same
 * DOM: in a release build the app's address is on this script's tag (utils/build/first-frame-html.ts),
 * so the app's evaluation does not hold up the first frame.
 */
export default defineUnlistedScript(() => {
  const data = (document.currentScript as HTMLScriptElement | null)?.dataset;
  const app = data?.app;
  let preloaded = false;
  /** The app's chunks, fetched and compiled meanwhile (the build moved their preload links here). */
  const preload = () => {
    if (preloaded) return;
    preloaded = true;
    for (const href of data?.preload?.split(' ') ?? []) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.append(link);
    }
  };
  let started = false;
  const startApp = () => {
    if (!app || started) return;
    started = true;
    preload();
    const script = document.createElement('script');
    script.type = 'module';
    // As the modulepreload links fetched it, so their copies are used.
    script.crossOrigin = '';
    script.src = app;
    document.head.append(script);
  };
  try {
    applyBrand();
    // The page's body comes after this script: the read is out while the stylesheet loads.
    const parsed = new Promise<void>((resolve) =>
      document.readyState === 'loading'
        ? document.addEventListener('DOMContentLoaded', () => resolve(), { once: true })
        : resolve(),
    );
    void firstRead
      .then(async (stored) => {
        // The page's root is there as soon as the parser has reached it: painting then, not at
        // DOMContentLoaded, spares the wait for the parser's last task, which a busy machine puts a
        // frame or more later (measured: npm run bench, JOURNAL.md). Development builds wait: their
        // Preact starts from the page's own module script, which runs before DOMContentLoaded.
        let root = app ? document.getElementById('app') : null;
        if (!root) {
          await parsed;
          root = document.getElementById('app');
        }
        // A task after the next frame's rendering: that frame is on its way to the screen.
        const afterFrame = (then: () => void) => requestAnimationFrame(() => setTimeout(then, 0));
        // A committed frame still has to be rastered and drawn, off the main thread but on the same
        // cores: on two, the app's start (script fetch, compile, Preact's first render) right after
        // the rows' frame held it back by some 20 ms. Started two frames later still, the app lets
        // that frame reach the screen first (measured: npm run bench, npm run bench:trace).
        const settled = (then: () => void) => afterFrame(() => afterFrame(() => afterFrame(then)));
        // The header and the balance first, the parts below them a frame later, then the app.
        let deferred = false;
        const later = (rest: () => void) => {
          deferred = true;
          afterFrame(() => {
            try {
              rest();
            } finally {
              settled(startApp);
            }
          });
        };
        // Preact got there first (development builds start it themselves).
        if (!root || root.firstChild) return startApp();
        paintFirstFrame(root, stored, Date.now(), later);
        holdEarlyClicks(root);
        // The prompt to connect is painted whole: the app once that frame is on its way.
        if (!deferred) requestAnimationFrame(startApp);
      })
      .catch(startApp);
  } catch {
    startApp();
  }
});
