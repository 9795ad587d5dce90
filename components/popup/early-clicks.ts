/**
 * The first frame's buttons are on screen before Preact has taken them over (issue 19). A click in
 * that moment is held, not lost: the first-frame script holds clicks on buttons, and main.tsx, once
 * Preact has rendered into the same DOM, clicks the same buttons again. Links and inputs work
 * without a script and are left alone.
 */
const HELD = '__panelEarlyClicks';

interface Held {
  buttons: HTMLButtonElement[];
  stop(): void;
}

type WithHeld = typeof globalThis & { [HELD]?: Held };

export function holdEarlyClicks(root: Element): void {
  const buttons: HTMLButtonElement[] = [];
  const hold = (event: Event) => {
    const button = (event.target as Element | null)?.closest?.('button');
    if (!button) return;
    event.preventDefault();
    event.stopPropagation();
    buttons.push(button);
  };
  root.addEventListener('click', hold, true);
  (globalThis as WithHeld)[HELD] = { buttons, stop: () => root.removeEventListener('click', hold, true) };
}

/** After Preact's first render: the held clicks, once each, on the buttons still in the page. */
export function replayEarlyClicks(): void {
  const held = (globalThis as WithHeld)[HELD];
  if (!held) return;
  delete (globalThis as WithHeld)[HELD];
  held.stop();
  for (const button of held.buttons) if (button.isConnected) button.click();
}
