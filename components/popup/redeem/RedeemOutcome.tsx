import { useState } from 'preact/hooks';
import { formatMoney, formatPoints } from '../../../utils/format';
import { recordedAgainText } from '../../../utils/recorded-again';
import { t, tp } from '../../../utils/i18n';
import { redemptionState } from '../../../utils/redemption-state';
import { rewardKind } from '../../../utils/reward-view';
import type { LedgerEntry } from '../../../utils/storage-items';
import { asSentence, gap, sentences } from '../../../utils/sentences';
import { settings } from '../../../utils/settings';
import type { Reward } from '../../../utils/types';
import { failedText } from './failed-text';
import { failureModel, panelQuote, supportText } from '../model/failure';
import { HistoryLink } from '../HistoryLink';
import { Qty } from '../Qty';
import { asName } from '../../../utils/qty';
import { LazyDetails } from '../lazy/LazyDetails';
import { lazyView } from '../lazy/lazy-view';

import { OUTCOME_ID, REDEEM_WAIT_ID } from '../model/outcome-ids';
import { focusRewardRow } from './return-focus';
import { SupportDetails } from '../SupportDetails';
import { supportModel } from '../model/support-model';
import { pointsTaken } from '../../../utils/points-taken';
import { notFoundText } from './not-found-text';

interface Props {
  entry: LedgerEntry;
  balance: number | null;
  now: number;
  /** The reward as the catalogue has it, when the popup has it at hand: how it arrives depends on its kind. */
  reward?: Reward | undefined;
  onDismiss: () => void;
  /** Opens the confirmation for the entry's reward again (after not_found, while the points allow). */
  onRedeemAgain?: (() => void) | undefined;
}

/**
 * The ledger entry, which the background keeps: it survives the popup closing mid-request, so
 * this is what the panelist sees on reopening. An unknown outcome is never told as a failure: the
 * background is still checking the history (ARCHITECTURE.md#redemptions). The panel's answer only chooses the words
 * until a history read decides: an answer speaks for one copy of the request, and a browser may
 * have sent two.
 */
export function RedeemOutcome({ entry, balance, now, reward, onDismiss, onRedeemAgain }: Props) {
  const { state } = entry;
  const pending = state === 'pending';
  const settled = state === 'done' || state === 'failed' || state === 'not_found';
  // One Confirm the panel recorded more than once (maybe a request delivered twice) is a warning, not a plain success.
  const again = state === 'done' && (entry.duplicates?.length ?? 0) > 0;
  const tone = state === 'done' && !again ? 'ok' : state === 'failed' ? 'error' : pending ? 'info' : 'warn';
  // For support, and only when asked for: the panel's own words, the HTTP status and the endpoint, out of the way.
  const support = state !== 'done' && entry.error ? supportText(entry.error, panelQuote(entry.error) !== null) : null;
  return (
    <section
      id={OUTCOME_ID}
      class={`notice notice-${tone}`}
      tabIndex={-1}
      aria-labelledby={`${OUTCOME_ID}-title`}
      aria-busy={pending}
    >
      <div role={state === 'failed' ? 'alert' : 'status'}>
        <p id={`${OUTCOME_ID}-title`}>
          <strong>
            <Qty text={title(entry)} />
          </strong>
        </p>
        {state === 'done' ? (
          <Redeemed entry={entry} reward={reward ?? entry.redemption?.reward} />
        ) : (
          body(entry, balance)
        )}
      </div>
      {state === 'unknown' && <LazyCheckNow entry={entry} now={now} />}
      {settled && (
        <div class="notice-actions">
          {onRedeemAgain && (
            <button
              type="button"
              class="btn btn-redeem"
              aria-label={t('redeemAgainFor', entry.rewardName)}
              onClick={onRedeemAgain}
            >
              {t('redeemAgain')}
            </button>
          )}
          <button
            type="button"
            class={state === 'done' ? 'btn btn-primary' : 'btn btn-quiet'}
            aria-label={t('namedAction', t(state === 'done' ? 'done' : 'close'), entry.rewardName)}
            onClick={() => {
              onDismiss();
              // Not to the page, as the card goes: back to the reward's row, where the panelist was.
              focusRewardRow(entry.rewardId);
            }}
          >
            {t(state === 'done' ? 'done' : 'close')}
          </button>
          {state === 'done' && <HistoryLink sentence={t('trackInHistory')} />}
        </div>
      )}
      {support && <SupportDetails m={supportModel(support)} />}
    </section>
  );
}

/** The card's title, the reward's name one unit in its own direction ({@link asName}), as Confirm sets it. */
function title(entry: LedgerEntry): string {
  const name = asName(entry.rewardName);
  switch (entry.state) {
    case 'pending':
      if (entry.answer === 'success') return t('outcomeConfirming', name);
      if (entry.answer === 'refused') return t('outcomeRefusedTitle', name);
      return t(entry.answer === 'unclear' ? 'outcomeUnknown' : 'outcomePending', name);
    case 'done':
      return t('outcomeDone', name);
    case 'failed':
      return t('outcomeFailed', name);
    case 'unknown':
      // Refused, but the balance shows the points gone: what is checked is whether it went through.
      return t(entry.answer === 'refused' && !pointsTaken(entry) ? 'outcomeRefusedTitle' : 'outcomeUnknown', name);
    case 'not_found':
      return t('outcomeNotFound', name);
  }
}

function body(entry: LedgerEntry, balance: number | null) {
  switch (entry.state) {
    case 'pending': {
      // A refusal may speak for a re-sent copy while the first one was charged: only the history read
      // under way can say that nothing was.
      const said = entry.answer === 'refused' ? reason(entry, balance) : '';
      return (
        <>
          <p>
            <Qty
              text={entry.answer === 'refused' ? sentences(said, t('checkingNothingTaken')) : t('outcomePendingText')}
            />
          </p>
          <p id={REDEEM_WAIT_ID}>{t('waitForRedemption')}</p>
        </>
      );
    }
    case 'done':
      return null;
    case 'failed': {
      const said = refusal(entry, balance);
      return (
        <p>
          <Qty text={said} />
          {gap(said)}
          {entry.error?.nothingCharged ? t('nothingCharged') : <HistoryLink sentence={t('checkHistoryFirst')} />}
        </p>
      );
    }
    case 'not_found':
      // What the answer and the balance say of it decide the words (utils/points-taken.ts).
      return <p>{notFoundText(entry)}</p>;
    case 'unknown': {
      // Points short says nothing when the balance shows them taken (Check now's words say that).
      const said = entry.answer === 'refused' && !pointsTaken(entry) ? reason(entry, balance) : '';
      return said ? (
        <p>
          <Qty text={said} />
        </p>
      ) : null;
    }
  }
}

/**
 * What to add under a title that already says the panel refused, while the history is checked: the
 * panelist's own numbers when the points fell short, else the panel's reason in its own words when
 * it gave one (what to do next waits for the history).
 */
function reason(entry: LedgerEntry, balance: number | null): string {
  return shortBy(entry, balance) ?? panelQuote(entry.error) ?? '';
}

/** "You have 300 points; this reward needs 1,000.", when the balance says so. */
function shortBy(entry: LedgerEntry, balance: number | null): string | null {
  const have = entry.balanceAfter ?? balance;
  if (have !== null && have !== undefined && entry.points !== null && have < entry.points) {
    return t('outcomeShort', tp('points', have), formatPoints(entry.points));
  }
  return null;
}

/**
 * Success, told once, not in two places: what was redeemed (the title), what it cost and the new balance,
 * and how the reward reaches the panelist, from its kind and where the history says it is; for a
 * gift card, its instructions one click away. No second status beside it.
 */
function Redeemed({ entry, reward }: { entry: LedgerEntry; reward: Reward | undefined }) {
  const [howTo, setHowTo] = useState(false);
  // "Your balance is now" only from the read the background made after the answer: the header's
  // balance may be the read made just before sending, and a failed read after it leaves that unsaid.
  const after = entry.balanceAfter;
  const copies = 1 + (entry.duplicates?.length ?? 0);
  // What the history shows spent, the ledger (the cost confirmed is what was asked, not what the
  // panel took): each copy it recorded cost the points, not the first alone. A history record that
  // gives no points leaves the figure unsaid.
  const each = entry.redemption?.reward_point_cost ?? null;
  const spent = each === null ? null : each * copies;
  const numbers = sentences(
    spent === null ? '' : tp('pointsSpent', spent),
    after === null || after === undefined ? '' : tp('balanceNow', after),
  );
  const kind = reward ? rewardKind(reward) : 'other';
  return (
    <>
      {copies > 1 && (
        <p>
          <Qty text={recordedAgainText(copies, entry.points)} />
        </p>
      )}
      {/* A re-sent copy was refused while the first committed: the history, not the answer, is what happened. */}
      {entry.answer === 'refused' && <p>{t('doneDespiteRefusal')}</p>}
      {numbers && (
        <p>
          <Qty text={numbers} />
        </p>
      )}
      <p>
        <Qty text={arrival(entry, reward)} />
      </p>
      {reward && kind !== 'wallet' && (
        <details class="how-to" onToggle={(e) => setHowTo(e.currentTarget.open)}>
          <summary>{t('howToUse')}</summary>
          {howTo && <LazyDetails reward={reward} only="detailsHowToRedeem" />}
        </details>
      )}
    </>
  );
}

/** How the reward arrives, by its kind, and once the history says so, that it was sent. */
export function arrival(entry: LedgerEntry, reward: Reward | undefined): string {
  const state = entry.redemption ? redemptionState(entry.redemption).kind : 'pending';
  // Where the points are: not back until the panel refunds it, which the history will then say.
  if (state === 'failed') return failedText();
  if (state === 'refunded') return t('meaningRefunded');
  if (state === 'unclaimed') return t('meaningUnclaimed');
  const sent = state === 'complete';
  const money = reward && formatMoney(reward.cost, reward.cost_currency);
  // Without a value that is money (no reward, or a currency that is not an ISO 4217 code), no amount is said.
  if (!reward || !money) return t(sent ? 'arrivedOther' : 'arrivesOther');
  const kind = rewardKind(reward);
  if (kind === 'gift') return t(sent ? 'arrivedGiftCard' : 'arrivesGiftCard', money);
  if (kind === 'wallet') return t(sent ? 'arrivedWallet' : 'arrivesWallet', money);
  return t(sent ? 'arrivedOther' : 'arrivesOther');
}

/**
 * Why it failed, in plain words with the next step, the technical part for support only: the panelist's own numbers when
 * the points fell short (after a refusal the background reads the balance again, so "You have 300
 * points; this reward needs 1,000" holds whatever the panel wrote); for any other refusal, the
 * panel's reason quoted as its own where it gave one ("Panel Rewards said: “This reward is
 * temporarily unavailable.”") and what to do instead, else that this reward cannot be redeemed now.
 * The HTTP status and the endpoint are for support, behind "Details for support".
 */
export function refusal(entry: LedgerEntry, balance: number | null): string {
  const short = shortBy(entry, balance);
  if (short) return short;
  const error = entry.error;
  if (!error) return t('outcomeRefused');
  const panel = settings.panelName;
  const quote = panelQuote(error);
  if (error.kind === 'not_allowed') return sentences(quote ?? '', t('refusedNotAllowed', panel));
  if (error.kind === 'rejected')
    return quote ? sentences(quote, t('refusedTryAnotherStep', panel)) : t('refusedTryAnother', panel);
  return asSentence(failureModel(error).reason);
}

/**
 * Only an unknown outcome has its explanation, the check times and "Check now": their code (and
 * the time formats) load with it, outside the first load, their height kept meanwhile.
 */
const { Lazy: LazyCheckNow } = lazyView<{ entry: LedgerEntry; now: number }>(
  () => import('./CheckNow').then((m) => m.CheckNow),
  () => <div class="check-now" />,
);
