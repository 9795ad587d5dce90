import { render } from 'preact';
import { App, preloadPrompt, preloadStillChecking } from '../../components/popup/App';
import { replayEarlyClicks } from '../../components/popup/first-frame/early-clicks';
import { FIRST_FRAME_ITEMS } from '../../components/popup/first-frame/first-frame';
import { preloadOutcome } from '../../components/popup/redeem/LazyOutcome';
import { applyBrand } from '../../utils/brand';
import { preload } from '../../utils/storage-item';
import { ledgerItem, sessionItem, unsettledItem } from '../../utils/storage-items';
import { toldFrom } from '../../components/popup/redeem/settled-seen-item';
import './style.css';

applyBrand();
/**
 * One storage read before the first render, of what the first-frame script (entrypoints/first-frame.ts)
 * read to paint the first frame: Preact's first render shows the same state, so it takes over the
 * painted DOM without a visible change. It holds the small popup view, not the catalogue or
 * the history, whatever their size, so a big catalogue opens as fast as a small one. Whatever that
 * first render shows is loaded first: the
 * outcome card when there is one, the redemptions still being checked (or settled unseen), the prompt to connect.
 */
void preload(FIRST_FRAME_ITEMS)
  .then(() => {
    const session = sessionItem.peek();
    const live = session?.connected && !session.rejected;
    return Promise.all([
      ledgerItem.peek() && preloadOutcome(),
      live &&
        ((unsettledItem.peek()?.length ?? 0) > 0 || (toldFrom((item) => item.peek())?.length ?? 0) > 0) &&
        preloadStillChecking(),
      !live && preloadPrompt(),
    ]);
  })
  .catch(() => {})
  .finally(() => {
    render(<App />, document.getElementById('app')!);
    replayEarlyClicks();
  });
