import { render } from 'preact';
import { App } from '../../components/popup/App';
import { outcomeSeenItem } from '../../components/popup/seen-outcome';
import { applyBrand } from '../../utils/brand';
import { preload } from '../../utils/storage-item';
import { balanceHistoryItem, goalItem, historyItem, ledgerItem, rewardsItem, sessionItem, syncItem } from '../../utils/storage-items';
import './style.css';

applyBrand();
// One storage read before the first render, so the first frame already shows the cached balance.
void preload([sessionItem, rewardsItem, historyItem, syncItem, ledgerItem, outcomeSeenItem, goalItem, balanceHistoryItem]).finally(() =>
  render(<App />, document.getElementById('app')!),
);
