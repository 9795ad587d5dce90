import type { ComponentChildren, FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { t } from '../../utils/i18n';
import type { Reward } from '../../utils/types';

type Details = FunctionComponent<{ reward: Reward; redeem: ComponentChildren }>;
let loaded: Details | undefined;

/** The details view and its sanitizer load on first use, outside the popup's first chunk. */
export function LazyDetails({ reward, redeem }: { reward: Reward; redeem: ComponentChildren }) {
  const [View, setView] = useState<Details | undefined>(() => loaded);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (View) return;
    let live = true;
    import('./RewardDetails').then(
      (m) => {
        loaded = m.RewardDetails;
        if (live) setView(() => m.RewardDetails);
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);
  if (View) return <View reward={reward} redeem={redeem} />;
  return (
    <p class="muted details" aria-busy={!failed}>
      {t(failed ? 'detailsFailed' : 'detailsLoading')}
    </p>
  );
}
