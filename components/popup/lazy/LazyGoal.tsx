import type { FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { GoalPanelProps } from '../GoalPanel';

type Panel = FunctionComponent<GoalPanelProps>;
let loaded: Panel | undefined;

/**
 * Loads the goal header's code. main.tsx does it before the first render when there is a goal or a
 * balance change to show, so it is in Preact's first render as in the first frame, and nothing moves.
 */
export function preloadGoal(): Promise<unknown> {
  return import('../GoalPanel').then((m) => (loaded = m.GoalPanel));
}

/**
 * The goal header and the 30-day change, outside the popup's first chunk (its 20 KiB gzip budget).
 * Without a preload, nothing shows until the code is there: the balance and the rewards do not wait on it.
 */
export function LazyGoal(props: GoalPanelProps) {
  const [View, setView] = useState<Panel | undefined>(() => loaded);
  useEffect(() => {
    if (View) return;
    let live = true;
    preloadGoal().then(
      () => live && setView(() => loaded),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return View ? <View {...props} /> : null;
}
