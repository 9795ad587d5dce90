import type { FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { GoalPanelProps } from './GoalPanel';

type Panel = FunctionComponent<GoalPanelProps>;
let loaded: Panel | undefined;

/**
 * The goal header and the 30-day change load right after the first paint, outside the popup's
 * first chunk (its 20 KiB gzip budget has about 1 KiB left). Nothing shows until then: the
 * balance and the rewards, which the first paint is for, do not wait on it.
 */
export function LazyGoal(props: GoalPanelProps) {
  const [View, setView] = useState<Panel | undefined>(() => loaded);
  useEffect(() => {
    if (View) return;
    let live = true;
    import('./GoalPanel').then(
      (m) => {
        loaded = m.GoalPanel;
        if (live) setView(() => m.GoalPanel);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return View ? <View {...props} /> : null;
}
