import { GoalPanelView } from '../GoalPanel';
import { HeaderView } from '../Header';
import { ListView } from '../ListView';
import { PageLayout, PromptLayout } from '../PopupLayout';
import { PromptView } from '../PromptView';
import { RowView } from '../RewardRow';
import { Skeleton } from '../Skeleton';
import { SyncNotice } from '../SyncNotice';
import type { PopupTop, RewardsPageModel } from '../model/popup-model';

/**
 * The first frame as App renders the same state (App.tsx), from the same views and the same model
 * (popup-model.ts): what render-dom.ts paints before Preact has loaded. Two parts, so the header and
 * the balance reach the screen a frame before what is below them.
 */

/** The page and its header; on the rewards page its main still empty. */
export function FrameTop({ model }: { model: PopupTop }) {
  const header = <HeaderView m={model.header} />;
  if (model.page === 'prompt') {
    return (
      <PromptLayout header={header}>
        <PromptView m={model.prompt} />
      </PromptLayout>
    );
  }
  return (
    <PageLayout header={header} busy={model.busy} inert={false}>
      {null}
    </PageLayout>
  );
}

/**
 * The rewards page's main, in App's order: the goal, the sync notice, then the list and its first
 * rows (or, with nothing cached yet, placeholder rows). It ends above the outcome card and the
 * redemptions still being checked (or settled unseen), whose code loads with Preact: Preact adds them, and the list,
 * below what is painted, so nothing painted moves.
 */
export function FrameMain({ model }: { model: RewardsPageModel }) {
  const ends = model.outcome !== null || model.checking.length > 0 || model.told.length > 0;
  return (
    <>
      {model.goal && <GoalPanelView m={model.goal} />}
      <SyncNotice error={model.notice.error} loading={model.notice.loading} />
      {!ends && model.list && (
        <ListView m={model.list}>
          {model.rows.map((row) => (
            <RowView key={row.base} m={row} />
          ))}
        </ListView>
      )}
      {!ends && model.skeleton && <Skeleton />}
    </>
  );
}
