import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { FIRST_FRAME_ITEMS, paintFirstFrame } from '../components/popup/first-frame';
import { applyBrand } from '../utils/brand';

/**
 * popup.html's first frame (issue 19): a classic script, no framework and no module graph, that
 * reads what the popup shows in ONE storage.local.get and paints it from the templates rendered at
 * build time, as text only. Preact (main.tsx) then takes over the same DOM.
 */
export default defineUnlistedScript(() => {
  applyBrand();
  const storage = ((globalThis as { browser?: typeof chrome }).browser ?? chrome).storage;
  void storage.local.get(FIRST_FRAME_ITEMS.map((item) => item.key)).then((stored) => {
    const root = document.getElementById('app');
    // Preact got there first (it never should: its own read is queued behind this one).
    if (root && !root.firstChild) paintFirstFrame(root, stored, Date.now());
  });
});
