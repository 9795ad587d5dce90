import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { holdEarlyClicks } from '../components/popup/early-clicks';
import { FIRST_FRAME_ITEMS, paintFirstFrame } from '../components/popup/first-frame';
import { applyBrand } from '../utils/brand';

/**
 * popup.html's first frame, so the balance is there at once: a classic script, no framework and no module graph, that
 * reads what the popup shows in ONE storage.local.get and paints it from the templates rendered at
 * build time, as text only. Then it starts the app (Preact, main.tsx), which takes over the same
 * DOM: in a release build the app's address is on this script's tag (utils/build/first-frame-html.ts),
 * so the app's evaluation does not hold up the first frame.
 */
export default defineUnlistedScript(() => {
  const app = (document.currentScript as HTMLScriptElement | null)?.dataset.app;
  let started = false;
  const startApp = () => {
    if (!app || started) return;
    started = true;
    const script = document.createElement('script');
    script.type = 'module';
    // As the modulepreload links fetched it, so their copies are used.
    script.crossOrigin = '';
    script.src = app;
    document.head.append(script);
  };
  try {
    applyBrand();
    const storage = ((globalThis as { browser?: typeof chrome }).browser ?? chrome).storage;
    void storage.local
      .get(FIRST_FRAME_ITEMS.map((item) => item.key))
      .then((stored) => {
        const root = document.getElementById('app');
        // Preact got there first (development builds start it themselves).
        if (!root || root.firstChild || paintFirstFrame(root, stored, Date.now()) === 0) return startApp();
        holdEarlyClicks(root);
        // Once the frame is on its way to the screen.
        requestAnimationFrame(startApp);
      })
      .catch(startApp);
  } catch {
    startApp();
  }
});
