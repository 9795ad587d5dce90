/**
 * Redemption outcomes the background settles later and what a refusal tells the
 * panelist: unknown is "being checked", never "failed"; Check now; not found;
 * the explicit confirmation before redeeming a reward whose earlier redemption is unsettled; the
 * panelist's own numbers after a refusal; outcome cards that expire once seen.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { nextCheckIn } from '../../components/popup/redeem/CheckNow';
import { outcomeSeenItem } from '../../components/popup/redeem/outcome-seen-item';
import { clockTime } from '../../components/popup/when';
import { appError } from '../../utils/errors';
import type { Result } from '../../utils/messages';
import { accountOf, goalItem, ledgerItem, rewardsItem, type LedgerEntry } from '../../utils/storage-items';
import { installI18n } from './i18n-setup';
import { background } from './fake-background';
import {
  CONNECTED,
  click,
  getByRole,
  giftCard,
  ledger,
  mount,
  queryAllByRole,
  redemption,
  seed,
  unmount,
  waitFor,
} from './popup-fixtures';
import { rid } from './test-ids';

vi.mock('../../utils/messages', () => import('./fake-background').then((m) => m.fakeMessages));

const amazon = giftCard(1, 'Amazon $5', 500);
const books = giftCard(2, 'Northwind Books $10', 1000);
const calls = (type: string) => background.calls.filter((c) => c.type === type);
const SENT = Date.now() - 90_000;

beforeEach(() => {
  fakeBrowser.reset();
  background.calls.length = 0;
  background.answers = {};
});
afterEach(unmount);

const unknown = (extra = {}) =>
  ledger('unknown', {
    startedAt: SENT,
    checks: { done: 1, nextAt: Date.now() + 60_000, lastAt: Date.now() - 30_000 },
    ...extra,
  });

describe('a refusal while the balance shows the points gone', () => {
  it('says the points were taken and the history is being checked, never that the panel refused it alone', async () => {
    const entry = unknown({ answer: 'refused', balanceBefore: 2500, balanceMoved: -500, points: 500 });
    await seed({ rewards: [amazon, books], balance: 2000, ledger: entry });
    const root = mount();
    const outcome = await waitFor(() => getByRole(root, 'region', 'Checking whether Amazon $5 went through'));
    await waitFor(() => getByRole(outcome, 'button', 'Check now whether Amazon $5 went through'));
    expect(outcome.textContent).toContain(
      `The panel refused it when you redeemed it at ${clockTime(SENT)}, but your balance then went down by 500 points: the points were taken.`,
    );
    expect(outcome.textContent).not.toMatch(/nothing was (charged|taken)/i);
  });

  it('not found after every check, with the points gone: contact the panel, never "redeem it again"', async () => {
    await seed({
      rewards: [amazon, books],
      balance: 2000,
      ledger: ledger('not_found', {
        startedAt: SENT,
        answer: 'refused',
        balanceBefore: 2500,
        balanceMoved: -500,
        points: 500,
      }),
    });
    const root = mount();
    const outcome = await waitFor(() => getByRole(root, 'region', 'Amazon $5 was not found in your history'));
    expect(outcome.textContent).toContain(
      'Your balance went down by its points, but it has not appeared in your history in 30 minutes. Contact Panel Rewards before redeeming it again.',
    );
    expect(outcome.textContent).not.toContain('You can redeem it again');
  });
});

describe('not found after the last check: the balance read then is evidence too', () => {
  const notFound = (extra = {}) =>
    ledger('not_found', { startedAt: SENT, answer: 'unclear', balanceBefore: 2500, points: 500, ...extra });
  const card = async (entry: ReturnType<typeof notFound>) => {
    await seed({ rewards: [amazon, books], balance: 2500, ledger: entry });
    const root = mount();
    return waitFor(() => getByRole(root, 'region', 'Amazon $5 was not found in your history'));
  };

  it('a balance the last check read lower by its cost: contact the panel, never "you can redeem it again"', async () => {
    const outcome = await card(notFound({ balanceAfter: 2000 }));
    expect(outcome.textContent).toContain(
      'Your balance went down by its points, but it has not appeared in your history in 30 minutes. Contact Panel Rewards before redeeming it again.',
    );
    expect(outcome.textContent).not.toContain('You can redeem it again');
    // Once the rows are in (Redeem again needs the catalogue too), the reward's Redeem is held, and
    // the card offers none.
    const root = outcome.closest('main') ?? document.body;
    await waitFor(() =>
      expect((getByRole(root, 'button', 'Redeem Amazon $5') as HTMLButtonElement).disabled).toBe(true),
    );
    expect(queryAllByRole(outcome, 'button', /^Redeem again/)).toHaveLength(0);
  });

  it('the panel said yes and the history never showed it: the reward’s Redeem is held while the card says so', async () => {
    // Both balance reads gave a balance, and it stayed: only the panel's yes speaks for it.
    const outcome = await card(notFound({ answer: 'success', balanceAfter: 2500 }));
    const root = outcome.closest('main') ?? document.body;
    expect(outcome.textContent).toContain('Contact Panel Rewards before redeeming it again.');
    // The row below the card does not offer what the card asks to hold, and says why.
    const redeem = await waitFor(() => getByRole(root, 'button', 'Redeem Amazon $5') as HTMLButtonElement);
    await waitFor(() => expect(redeem.disabled).toBe(true));
    // Nor does the card, the rows (and so the catalogue Redeem again needs) being in.
    expect(queryAllByRole(outcome, 'button', /^Redeem again/)).toHaveLength(0);
    expect(document.getElementById(redeem.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Held back: your last redemption of it is not in your history. Contact Panel Rewards before redeeming it again',
    );
    // Another reward is not held by it.
    expect((getByRole(root, 'button', 'Redeem Northwind Books $10') as HTMLButtonElement).disabled).toBe(false);
    // Closing the card ends the hold: the panelist has read it, and decides.
    await click(getByRole(outcome, 'button', 'Close: Amazon $5'));
    expect(calls('dismissRedemption')).toHaveLength(1);
    await ledgerItem.setValue(null);
    await waitFor(() =>
      expect((getByRole(root, 'button', 'Redeem Amazon $5') as HTMLButtonElement).disabled).toBe(false),
    );
  });

  it('a hold on a listing the brand’s picker shows through its twin holds the Redeem shown', async () => {
    // Two listings alike in brand, value, cost and countries: the picker shows one choice, and the
    // cheaper id (Amazon's own) stands for both. The card is about the other one.
    const twin = giftCard(3, 'Amazon $5', 500);
    const entry = notFound({ answer: 'success', balanceAfter: 2500, rewardId: twin.id, requestId: 'nf-twin' });
    await seed({ rewards: [amazon, twin, books], balance: 2500, ledger: entry });
    const root = mount();
    const outcome = await waitFor(() => getByRole(root, 'region', 'Amazon $5 was not found in your history'));
    expect(outcome.textContent).toContain('Contact Panel Rewards before redeeming it again.');
    const main = outcome.closest('main') ?? document.body;
    const redeem = await waitFor(() => getByRole(main, 'button', 'Redeem Amazon $5') as HTMLButtonElement);
    await waitFor(() => expect(redeem.disabled).toBe(true));
    expect(document.getElementById(redeem.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Held back: your last redemption of it is not in your history. Contact Panel Rewards before redeeming it again',
    );
    expect((getByRole(main, 'button', 'Redeem Northwind Books $10') as HTMLButtonElement).disabled).toBe(false);
  });

  it('a balance the last check could not read: check it first, never "you can redeem it again"', async () => {
    const outcome = await card(notFound());
    expect(outcome.textContent).toContain('your balance could not be read to confirm it');
    expect(outcome.textContent).not.toContain('You can redeem it again');
  });

  it('a balance read unmoved (or one fallen by less than the cost): it most likely did not go through', async () => {
    for (const balanceAfter of [2500, 2100]) {
      // Another Confirm each time: one a popup has shown settled is not shown again.
      const outcome = await card(notFound({ balanceAfter, requestId: `nf-${balanceAfter}` }));
      expect(outcome.textContent, String(balanceAfter)).toContain(
        'it most likely did not go through. You can redeem it again.',
      );
      unmount();
    }
  });

  it('a panel that shows no balance: the history alone, as before', async () => {
    const outcome = await card(notFound({ balanceBefore: null, balanceAfter: null }));
    expect(outcome.textContent).toContain('it most likely did not go through. You can redeem it again.');
  });
});

describe('unknown outcome: the panel is being checked', () => {
  it('says so in plain words with when it was sent and when the next check is, never that it failed', async () => {
    const entry = unknown();
    await seed({ rewards: [amazon, books], balance: 2500, ledger: entry });
    const root = mount();
    const outcome = await waitFor(() => getByRole(root, 'region', 'Checking whether Amazon $5 went through'));
    // The check times and "Check now" load with the first unknown outcome (outside the first chunk).
    await waitFor(() => getByRole(outcome, 'button', 'Check now whether Amazon $5 went through'));
    const text = outcome.textContent;
    expect(text).toContain(`The panel did not answer clearly when you redeemed it at ${clockTime(SENT)}.`);
    expect(text).toContain('The extension is checking your history and shows the outcome here');
    expect(text).toContain(`Not in your history yet at ${clockTime(entry.checks!.lastAt!)}.`);
    // From now, not a clock time that reads as past beside the time it was sent.
    expect(text).toContain('Next check in about 1 minute.');
    expect(text).not.toContain(`at ${clockTime(entry.checks!.nextAt!)}`);
    expect(text).not.toMatch(/did not go through|Nothing was charged|Could not redeem/);
    // The card's words are polite; so is what a check does (LiveState), and nothing else.
    expect(outcome.querySelector(':scope > [role=status]')).not.toBeNull();
    expect(queryAllByRole(outcome, 'alert')).toHaveLength(0);
    // Not settled: nothing to close yet, and the history is a link away.
    expect(queryAllByRole(outcome, 'button', /^(Close|Done):/)).toHaveLength(0);
    expect(getByRole(outcome, 'link', 'Open your history').getAttribute('href')).toBe('options.html#history');
  });

  it('when no check is left it points to the history instead of a time', async () => {
    await seed({
      rewards: [amazon],
      balance: 2500,
      ledger: unknown({ checks: { done: 4, nextAt: null, lastAt: null } }),
    });
    const root = mount();
    const outcome = await waitFor(() => getByRole(root, 'region', 'Checking whether Amazon $5 went through'));
    await waitFor(() =>
      expect(outcome.textContent).toContain(
        'No further check is planned: open your history to see whether it went through.',
      ),
    );
  });

  it('"Check now" asks the background once, is busy meanwhile (keeping focus), and shows its error', async () => {
    let answer!: (r: Result<unknown>) => void;
    background.answers.checkRedemption = () => new Promise((resolve) => (answer = resolve));
    await seed({ rewards: [amazon], balance: 2500, ledger: unknown() });
    const root = mount();
    const check = (await waitFor(() =>
      getByRole(root, 'button', 'Check now whether Amazon $5 went through'),
    )) as HTMLButtonElement;
    expect(check.textContent).toBe('Check now');
    check.focus();
    await click(check);
    await waitFor(() => expect(check.getAttribute('aria-disabled')).toBe('true'));
    expect(check.textContent).toBe('Checking…');
    // Not `disabled`: focus stays where the panelist pressed.
    expect(document.activeElement).toBe(check);
    await click(check);
    expect(calls('checkRedemption')).toEqual([{ type: 'checkRedemption', data: undefined }]);
    answer({ ok: false, error: appError('network', 'The panel could not be reached. Check your connection.') });
    await waitFor(() => expect(check.getAttribute('aria-disabled')).toBe('false'));
    expect(getByRole(root, 'alert').textContent).toBe('The panel could not be reached. Check your connection.');
  });

  it('a scheduled check that could not read the history says so, never "not in your history yet"', async () => {
    const entry = unknown();
    const unreadAt = entry.checks!.lastAt! + 60_000;
    await seed({ rewards: [amazon], balance: 2500, ledger: { ...entry, checks: { ...entry.checks!, unreadAt } } });
    const root = mount();
    const outcome = await waitFor(() => getByRole(root, 'region', 'Checking whether Amazon $5 went through'));
    await waitFor(() => getByRole(outcome, 'button', 'Check now whether Amazon $5 went through'));
    expect(outcome.textContent).toContain(`The check at ${clockTime(unreadAt)} could not read your history.`);
    expect(outcome.textContent).not.toContain('Not in your history yet');
  });

  it('"Check now" that could not read the history says so with the next try, not "checked, not there"', async () => {
    const message =
      'Your history could not be read, so nothing was checked. Panel Rewards has a problem right now. The next check is at 10:42.';
    background.answers.checkRedemption = async () => ({ ok: false, error: appError('server', message) });
    await seed({ rewards: [amazon], balance: 2500, ledger: unknown() });
    const root = mount();
    await click(await waitFor(() => getByRole(root, 'button', 'Check now whether Amazon $5 went through')));
    await waitFor(() => expect(getByRole(root, 'alert').textContent).toBe(message));
    expect(root.textContent).not.toMatch(/Checked just now|not in your history yet/);
  });

  it('"Check now" visibly answers when the history does not show it yet, with the next check', async () => {
    const entry = unknown();
    background.answers.checkRedemption = async () => ({ ok: true, data: entry });
    await seed({ rewards: [amazon], balance: 2500, ledger: entry });
    const root = mount();
    const check = await waitFor(() => getByRole(root, 'button', 'Check now whether Amazon $5 went through'));
    await click(check);
    const said = root.querySelector('#redeem-outcome .check-when')!;
    await waitFor(() =>
      expect(said.textContent).toBe(
        `Checked just now — not in your history yet. Next check in about 1 minute. The last check is at about ${clockTime(SENT + 30 * 60_000)}.`,
      ),
    );
  });

  it('in German', async () => {
    installI18n('de');
    const entry = unknown();
    background.answers.checkRedemption = async () => ({ ok: true, data: entry });
    await seed({ rewards: [amazon], balance: 2500, ledger: entry });
    const root = mount();
    await click(await waitFor(() => getByRole(root, 'button', 'Jetzt prüfen, ob Amazon $5 eingelöst wurde')));
    const said = root.querySelector('#redeem-outcome .check-when')!;
    await waitFor(() =>
      expect(said.textContent).toBe(
        `Geprüft: gerade eben – noch nicht in Ihrem Verlauf. Nächste Prüfung in etwa 1 Minute. Die letzte Prüfung ist gegen ${clockTime(SENT + 30 * 60_000)}.`,
      ),
    );
    const redeem = await waitFor(() => getByRole(root, 'button', 'Amazon $5 einlösen') as HTMLButtonElement);
    expect(document.getElementById(redeem.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Zurückgehalten: Ihre letzte Einlösung davon wird noch geprüft',
    );
  });

  /**
   * The card of an outcome being checked (a stored balance of 2,500, read before sending) once the
   * background finds it in the history, with `found` in its ledger entry.
   */
  async function foundLater(found: Partial<LedgerEntry>): Promise<HTMLElement> {
    await seed({ rewards: [amazon], balance: 2500, ledger: unknown() });
    const root = mount();
    await waitFor(() => getByRole(root, 'region', 'Checking whether Amazon $5 went through'));
    await ledgerItem.setValue({
      ...unknown(),
      state: 'done',
      redemption: redemption(50, amazon, '2025-03-01T10:00:00'),
      ...found,
    });
    return waitFor(() => getByRole(root, 'region', 'Redeemed Amazon $5'));
  }

  it('turns into "Redeemed" with the balance as soon as the background finds it in the history', async () => {
    const done = await foundLater({ balanceAfter: 2000 });
    expect(done.textContent).toContain('Your balance is now 2,000 points.');
    // The name in the title is one unit in its own direction, as in Confirm: "10 € Gutschein" stays whole in Arabic.
    expect(done.querySelector('strong bdi')?.textContent).toBe('Amazon $5');
  });

  it('found with no balance read after the answer: what it cost, never the balance from before sending as "now"', async () => {
    // The catalogue's read after the answer failed: the stored balance is still the one read just
    // before sending (2,500), which the redemption has since taken 500 from.
    const done = await foundLater({});
    expect(done.textContent).toContain('You spent 500 points.');
    expect(done.textContent).not.toContain('Your balance is now');
  });
});

describe('not found after the last check', () => {
  it('has its own words and offers to redeem again through the normal confirmation', async () => {
    // The balance read before sending and at the last check: the points stayed.
    const entry = ledger('not_found', { startedAt: SENT, balanceBefore: 2500, balanceAfter: 2500 });
    await seed({ rewards: [amazon], balance: 2500, ledger: entry });
    const root = mount();
    const outcome = await waitFor(() => getByRole(root, 'region', 'Amazon $5 was not found in your history'));
    expect(outcome.textContent).toContain('it most likely did not go through. You can redeem it again.');
    expect(getByRole(outcome, 'button', 'Close: Amazon $5')).toBeTruthy();
    // Offered once the catalogue, a read of its own, says the reward can be redeemed now.
    await click(await waitFor(() => getByRole(outcome, 'button', 'Redeem again: Amazon $5')));
    const dialog = await waitFor(() => getByRole(root, 'alertdialog', 'Confirm redemption'));
    await click(getByRole(dialog, 'button', 'Confirm redeeming Amazon $5'));
    expect(calls('redeem')).toEqual([
      { type: 'redeem', data: { session: 'popup-test-session', rewardId: '1', points: 500 } },
    ]);
  });

  it('does not offer to redeem again when the points no longer cover it', async () => {
    await seed({ rewards: [amazon], balance: 100, ledger: ledger('not_found') });
    const root = mount();
    const outcome = await waitFor(() => getByRole(root, 'region', 'Amazon $5 was not found in your history'));
    expect(queryAllByRole(outcome, 'button', /again/)).toHaveLength(0);
  });
});

describe('redeeming a reward whose earlier redemption is unsettled', () => {
  it('its Redeem is held back while the outcome is checked, and says why, in the row and the goal', async () => {
    await seed({ rewards: [amazon, books], balance: 2500, ledger: unknown() });
    await goalItem.setValue({ account: accountOf(CONNECTED), rewardId: rid(1), rewardName: 'Amazon $5', setAt: 1 });
    const root = mount();
    await waitFor(() => getByRole(root, 'region', /^Your goal\b/));
    const [goal, row] = queryAllByRole(root, 'button', 'Redeem Amazon $5') as HTMLButtonElement[];
    // Held back once the ledger's own read is in (main.tsx reads it before the first render).
    await waitFor(() => expect(row!.disabled).toBe(true));
    expect(document.getElementById(row!.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Held back: your last redemption of it is still being checked',
    );
    expect(goal!.disabled).toBe(true);
    // Another reward is not held back.
    expect((getByRole(root, 'button', 'Redeem Northwind Books $10') as HTMLButtonElement).disabled).toBe(false);
  });

  it('a popup that had not seen it asks first, naming that redemption and when it was sent; only that confirmation sends confirmUnsettled', async () => {
    await seed({ rewards: [amazon, books], balance: 2500, ledger: null });
    background.answers.redeem = async () => {
      await ledgerItem.setValue(unknown());
      return {
        ok: false,
        error: appError('unsettled', 'An earlier redemption of this reward is still being checked.'),
      };
    };
    const root = mount();
    await click(await waitFor(() => getByRole(root, 'button', 'Redeem Amazon $5')));
    await click(
      getByRole(
        await waitFor(() => getByRole(root, 'alertdialog', 'Confirm redemption')),
        'button',
        'Confirm redeeming Amazon $5',
      ),
    );
    const dialog = await waitFor(() => getByRole(root, 'alertdialog', 'Redeem again?'));
    expect(dialog.textContent).toContain(
      `Your redemption of Amazon $5 sent at ${clockTime(SENT)} is still being checked.`,
    );
    expect(dialog.textContent).toContain('If it went through, redeeming again spends another 500 points.');
    const described = dialog
      .getAttribute('aria-describedby')!
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent);
    expect(described.join(' ')).toContain('is still being checked');
    await waitFor(() => expect(document.activeElement).toBe(getByRole(dialog, 'button', 'Cancel')));
    await click(getByRole(dialog, 'button', 'Confirm redeeming Amazon $5 again'));
    expect(calls('redeem')).toEqual([
      { type: 'redeem', data: { session: 'popup-test-session', rewardId: '1', points: 500 } },
      { type: 'redeem', data: { session: 'popup-test-session', rewardId: '1', points: 500, confirmUnsettled: true } },
    ]);
  });

  it('another reward redeems with the plain confirmation', async () => {
    await seed({ rewards: [amazon, books], balance: 2500, ledger: unknown() });
    const root = mount();
    await click(await waitFor(() => getByRole(root, 'button', 'Redeem Northwind Books $10')));
    const dialog = await waitFor(() => getByRole(root, 'alertdialog', 'Confirm redemption'));
    await click(getByRole(dialog, 'button', 'Confirm redeeming Northwind Books $10'));
    expect(calls('redeem')).toEqual([
      { type: 'redeem', data: { session: 'popup-test-session', rewardId: '2', points: 1000 } },
    ]);
  });

  it('an "unsettled" refusal reopens the confirmation naming the unsettled redemption; nothing is resent by itself', async () => {
    await seed({ rewards: [amazon], balance: 2500, ledger: null });
    background.answers.redeem = async () => {
      // The background knew of an unknown outcome this popup had not rendered yet.
      await ledgerItem.setValue(unknown());
      return {
        ok: false,
        error: appError('unsettled', 'An earlier redemption of this reward is still being checked.'),
      };
    };
    const root = mount();
    await click(await waitFor(() => getByRole(root, 'button', 'Redeem Amazon $5')));
    await click(
      getByRole(
        await waitFor(() => getByRole(root, 'alertdialog', 'Confirm redemption')),
        'button',
        'Confirm redeeming Amazon $5',
      ),
    );
    const dialog = await waitFor(() => getByRole(root, 'alertdialog', 'Redeem again?'));
    expect(dialog.textContent).toContain(
      `Your redemption of Amazon $5 sent at ${clockTime(SENT)} is still being checked.`,
    );
    expect(calls('redeem')).toEqual([
      { type: 'redeem', data: { session: 'popup-test-session', rewardId: '1', points: 500 } },
    ]);
    background.answers.redeem = () => ({ ok: true, data: ledger('pending') });
    await click(getByRole(dialog, 'button', 'Confirm redeeming Amazon $5 again'));
    expect(calls('redeem')).toEqual([
      { type: 'redeem', data: { session: 'popup-test-session', rewardId: '1', points: 500 } },
      { type: 'redeem', data: { session: 'popup-test-session', rewardId: '1', points: 500, confirmUnsettled: true } },
    ]);
  });
});

describe("a refusal in the panelist's numbers", () => {
  /** The popup after the panel refused Northwind Books ($10, 1,000 points) with `error`, the balance at `balance`. */
  const refusedBooks = async (error: ReturnType<typeof appError>, balance = 2500) => {
    await seed({ rewards: [books], balance, ledger: ledger('failed', { rewardId: rid(2), points: 1000, error }) });
    return mount();
  };

  it('says "You have 300 points; this reward needs 1,000" instead of the raw text, and the rows follow the new balance', async () => {
    await seed({
      rewards: [amazon, books],
      balance: 2500,
      ledger: ledger('failed', {
        rewardId: rid(2),
        rewardName: 'Northwind Books $10',
        points: 1000,
        balanceAfter: 300,
        error: appError('rejected', 'Insufficient points: this reward needs 1000 points and you have 300', {
          status: 402,
          nothingCharged: true,
        }),
      }),
    });
    const root = mount();
    const alert = await waitFor(() => getByRole(root, 'alert'));
    expect(alert.textContent).toBe(
      'Could not redeem Northwind Books $10You have 300 points; this reward needs 1,000. Nothing was charged.',
    );
    // The background refreshed the balance after the refusal: header and rows follow it.
    await rewardsItem.setValue({
      data: { rewards: [amazon, books], balance: { points: 300, source: 'rewards' } },
      fetchedAt: Date.now(),
    });
    await waitFor(() => expect(root.querySelector('.hdr-balance')?.textContent).toBe('300 points'));
    const redeem = getByRole(root, 'button', 'Redeem Northwind Books $10') as HTMLButtonElement;
    expect(redeem.disabled).toBe(true);
    expect(document.getElementById(redeem.getAttribute('aria-describedby')!)?.textContent).toBe(
      'You need 700 more points',
    );
    expect((getByRole(root, 'button', 'Redeem Amazon $5') as HTMLButtonElement).disabled).toBe(true);
  });

  it("uses the current balance when the entry has none; another refusal quotes the panel's own words, the code for support", async () => {
    const root = await refusedBooks(appError('rejected', 'x', { nothingCharged: true }), 300);
    await waitFor(() =>
      expect(getByRole(root, 'alert').textContent).toContain('You have 300 points; this reward needs 1,000.'),
    );
    unmount();
    fakeBrowser.reset();
    const again = await refusedBooks(
      appError('rejected', 'This reward is temporarily unavailable.', {
        status: 422,
        endpoint: '/v1/panel/redemption',
        panelWords: true,
        nothingCharged: true,
      }),
    );
    await waitFor(() =>
      expect(getByRole(again, 'alert').textContent).toBe(
        'Could not redeem Amazon $5' +
          'Panel Rewards said: “This reward is temporarily unavailable.” Try another reward, or contact Panel Rewards. Nothing was charged.',
      ),
    );
    // The quote is the panel's words in their own direction; support gets the code, not the words again.
    expect([...again.querySelectorAll('#redeem-outcome bdi')].map((b) => b.textContent)).toEqual([
      'Amazon $5',
      'This reward is temporarily unavailable.',
    ]);
    expect(again.querySelector('#redeem-outcome .support-text')?.textContent).toBe('HTTP 422 /v1/panel/redemption');
  });

  it('a refusal without words of the panel’s own says so in plain words, the code for support', async () => {
    const root = await refusedBooks(
      appError('rejected', 'The panel refused this (HTTP 422).', { status: 422, nothingCharged: true }),
    );
    await waitFor(() =>
      expect(getByRole(root, 'alert').textContent).toContain(
        'This reward can’t be redeemed right now — try another, or contact Panel Rewards. Nothing was charged.',
      ),
    );
    expect(root.querySelector('#redeem-outcome .support-text')?.textContent).toBe(
      'The panel refused this (HTTP 422).\nHTTP 422',
    );
  });

  it('a 403 with the panel’s words quotes them before what to do', async () => {
    const root = await refusedBooks(
      appError('not_allowed', 'Gift cards are for members over 18.', {
        status: 403,
        panelWords: true,
        nothingCharged: true,
      }),
    );
    await waitFor(() =>
      expect(getByRole(root, 'alert').textContent).toContain(
        'Panel Rewards said: “Gift cards are for members over 18.” Your account can’t redeem this reward. If you think it should, contact Panel Rewards.',
      ),
    );
  });

  it('"check your history" is a link to the history', async () => {
    await seed({
      rewards: [amazon],
      balance: 2500,
      ledger: ledger('failed', { error: appError('server', 'The panel had a problem.') }),
    });
    const root = mount();
    const link = await waitFor(() => getByRole(root, 'link', 'Check your history before trying again.'));
    expect(link.getAttribute('href')).toBe('options.html#history');
    expect(link.getAttribute('target')).toBe('_blank');
  });
});

describe('an outcome card expires once seen', () => {
  it('a settled outcome shown in one opening is dismissed at the next', async () => {
    await seed({
      rewards: [amazon],
      balance: 2500,
      ledger: ledger('failed', { error: appError('rejected', 'No.', { nothingCharged: true }) }),
    });
    const first = mount();
    await waitFor(() => getByRole(first, 'region', 'Could not redeem Amazon $5'));
    // Marked seen in a storage write of its own, which the next opening reads: waited for, not timed.
    const { requestId } = (await ledgerItem.getValue())!;
    await vi.waitFor(async () => expect(await outcomeSeenItem.getValue()).toBe(requestId), { timeout: 10_000 });
    unmount();
    expect(calls('dismissRedemption')).toHaveLength(0);

    const second = mount();
    await waitFor(() => getByRole(second, 'button', 'Redeem Amazon $5'));
    await waitFor(() => expect(calls('dismissRedemption')).toHaveLength(1));
    expect(queryAllByRole(second, 'region', 'Could not redeem Amazon $5')).toHaveLength(0);
  });

  it('an outcome that settles while the popup is open counts as seen; one still being checked never expires', async () => {
    await seed({ rewards: [amazon], balance: 2500, ledger: unknown() });
    const first = mount();
    await waitFor(() => getByRole(first, 'region', 'Checking whether Amazon $5 went through'));
    unmount();
    const second = mount();
    await waitFor(() => getByRole(second, 'region', 'Checking whether Amazon $5 went through'));
    await ledgerItem.setValue({ ...unknown(), state: 'done', balanceAfter: 2000 });
    await waitFor(() => getByRole(second, 'region', 'Redeemed Amazon $5'));
    // Seen settled: the opening marks it so in a storage write of its own, which the next opening
    // reads. Waited for, not timed: on a busy machine 20 ms was not always enough.
    const { requestId } = unknown();
    await vi.waitFor(async () => expect(await outcomeSeenItem.getValue()).toBe(requestId), { timeout: 10_000 });
    unmount();
    expect(calls('dismissRedemption')).toHaveLength(0);

    const third = mount();
    await waitFor(() => expect(calls('dismissRedemption')).toHaveLength(1));
    expect(queryAllByRole(third, 'region', 'Redeemed Amazon $5')).toHaveLength(0);
  });
});

describe('when the next check is', () => {
  it('said from now, rounded: seconds to the ten, then minutes, in English and German', () => {
    expect(nextCheckIn(28_000)).toBe('Next check in about 30 seconds.');
    expect(nextCheckIn(2_000)).toBe('Next check in about 10 seconds.');
    expect(nextCheckIn(110_000)).toBe('Next check in about 2 minutes.');
    expect(nextCheckIn(30 * 60_000)).toBe('Next check in about 30 minutes.');
    installI18n('de');
    expect(nextCheckIn(28_000)).toBe('Nächste Prüfung in etwa 30 Sekunden.');
    expect(nextCheckIn(60_000)).toBe('Nächste Prüfung in etwa 1 Minute.');
    installI18n('en');
  });
});
