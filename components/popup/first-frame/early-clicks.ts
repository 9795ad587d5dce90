/**
 * The first frame's buttons are on screen before Preact has taken them over. A click in
 * that moment is held, not lost: the first-frame script holds clicks on buttons, and main.tsx, once
 * Preact has rendered into the same DOM, clicks the same buttons again. Links and inputs work
 * without a script and are left alone.
 */

/**
 * Where the held clicks wait: set as the first frame paints, gone once Preact's first render has
 * replayed them. A page without it whose main is painted is the app's (tests/e2e/popup-ready.ts).
 */
export const HELD = '__panelEarlyClicks';

interface Held {
  /** Each held click's button, with what the panelist saw it say when they clicked it. */
  clicks: Array<{ button: HTMLButtonElement; name: string }>;
  stop(): void;
}

/** What a button says to the panelist: its accessible name, where it has its own, else its words. */
const nameOf = (button: HTMLButtonElement) => button.getAttribute('aria-label') ?? button.textContent?.trim() ?? '';

type WithHeld = typeof globalThis & { [HELD]?: Held };

export function holdEarlyClicks(root: Element): void {
  const clicks: Held['clicks'] = [];
  const hold = (event: Event) => {
    const button = (event.target as Element | null)?.closest?.('button');
    if (!button) return;
    event.preventDefault();
    event.stopPropagation();
    clicks.push({ button, name: nameOf(button) });
  };
  root.addEventListener('click', hold, true);
  (globalThis as WithHeld)[HELD] = { clicks, stop: () => root.removeEventListener('click', hold, true) };
}

/**
 * After Preact's first render: the held clicks, once each, on the buttons still in the page that
 * still say what was clicked. Preact may reuse a painted button for another row ("Redeem Coffee"
 * becoming "Redeem Books"): that click is dropped, never sent to a reward the panelist did not pick.
 */
export function replayEarlyClicks(): void {
  const held = (globalThis as WithHeld)[HELD];
  if (!held) return;
  delete (globalThis as WithHeld)[HELD];
  held.stop();
  for (const { button, name } of held.clicks) if (button.isConnected && nameOf(button) === name) button.click();
}
