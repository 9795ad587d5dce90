import type { ComponentChildren } from 'preact';

/**
 * Two parts of one line joined by "·" ("Updated just now · Refresh", "800 points to your goal ·
 * Earn more points"): each part a box of its own, the "·" at the start of the second. Where the
 * line wraps between them, the second part starts the next line and its "·" falls outside the
 * line's start edge, which clips it (the `joined-line` it is set in, popup style.css): the "·" is
 * seen only between two parts on one line, never at a line's start or end. Hidden from screen
 * readers, to whom the two parts are read in turn.
 */
export function Joined({ first, then }: { first: ComponentChildren; then: ComponentChildren }) {
  return (
    <span class="joined">
      <span>{first}</span>
      <span class="joined-then">
        <span class="joined-dot" aria-hidden="true">
          {' · '}
        </span>
        {then}
      </span>
    </span>
  );
}
