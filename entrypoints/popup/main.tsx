import { render } from 'preact';
import { App } from '../../components/popup/App';
import { preloadOutcome } from '../../components/popup/LazyOutcome';
import { outcomeSeenItem } from '../../components/popup/seen-outcome';
import { applyBrand } from '../../utils/brand';
import { preload } from '../../utils/storage-item';
import { goalItem, ledgerItem, popupViewItem, sessionItem, syncItem } from '../../utils/storage-items';
import './style.css';

applyBrand();
// One storage read before the first render, so the first frame already shows the cached balance;
// it holds the small popup view, not the catalogue or the history, whatever their size (issue 13).
// A redemption's outcome card is in the first frame when there is one, so its code is loaded first.
void preload([sessionItem, popupViewItem, syncItem, ledgerItem, outcomeSeenItem, goalItem])
  .then(() => ledgerItem.peek() && preloadOutcome())
  .catch(() => {})
  .finally(() => render(<App />, document.getElementById('app')!));
