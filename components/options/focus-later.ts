/**
 * Moves focus once the page has rendered the outcome of a request. The button that started it was
 * disabled meanwhile, which drops its focus: an error takes focus so it is read out and seen, and
 * on success focus goes back to the button (`onlyIfLost`: unless the panelist has moved on).
 */
export function focusLater(target: () => HTMLElement | null | undefined, onlyIfLost = false): void {
  requestAnimationFrame(() => {
    const active = document.activeElement;
    const lost = !active || active === document.body || (active as HTMLButtonElement).disabled === true;
    if (!onlyIfLost || lost) target()?.focus();
  });
}
