/**
 * The panel's history is the ledger: what the panel answered a Confirm only chooses the words while
 * the history read after it decides, because the answer speaks for one copy of the request (the
 * browser may have sent two). Each case in English, one in German; "Nothing was charged" is said
 * only of a failed entry the history read backed (`nothingCharged`).
 */
import { redemptionKey } from '../../utils/ids';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { clockTime } from '../../components/popup/when';
import { appError } from '../../utils/errors';
import { settings } from '../../utils/settings';
import type { LedgerEntry } from '../../utils/storage-items';
import { installI18n } from './i18n-setup';
import { background } from './fake-background';
import {
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

const books = giftCard(2, 'Northwind Books $10', 1000);
const amazon = giftCard(1, 'Amazon $5', 500);
const gems = giftCard(5, 'Gem Card', 200);
const SENT = Date.now() - 90_000;
const PANEL = settings.panelName;
/** A 402 for a re-sent copy: the first copy may have taken the points. */
const short = appError('rejected', 'Insufficient points: this reward needs 1000 points and you have 500', {
  status: 402,
});

const entry = (state: LedgerEntry['state'], extra: Partial<LedgerEntry> = {}): LedgerEntry =>
  ledger(state, { rewardId: rid(2), rewardName: 'Northwind Books $10', points: 1000, startedAt: SENT, ...extra });
const checking = { checks: { done: 1, nextAt: Date.now() + 60_000, lastAt: Date.now() - 30_000 } };

beforeEach(() => {
  fakeBrowser.reset();
  background.calls.length = 0;
  background.answers = {};
});
afterEach(unmount);

/**
 * The outcome card once the balance is read too. Mounted without main.tsx's preload, each item is
 * its own read, and the catalogue (which carries the balance) is asked for after the popup view's
 * read says there is none: the ledger can be on screen first, with the balance not yet known.
 */
async function card(state: LedgerEntry, title: string, balance = 500): Promise<HTMLElement> {
  await seed({ rewards: [amazon, books], balance, ledger: state });
  const root = mount();
  await waitFor(() =>
    expect(root.querySelector('.hdr-balance strong')?.textContent).toBe(balance.toLocaleString('en')),
  );
  return waitFor(() => getByRole(root, 'region', title));
}

describe('while the history read after the answer is under way (pending, answered)', () => {
  it('success: "Redeemed — confirming in your history", and other rewards wait', async () => {
    const outcome = await card(
      entry('pending', { answer: 'success' }),
      'Redeemed Northwind Books $10 — confirming in your history',
    );
    expect(outcome.textContent).toContain('Other rewards can be redeemed once this one has finished.');
    expect(outcome.getAttribute('aria-busy')).toBe('true');
    expect(outcome.textContent).not.toMatch(/Nothing was charged|You spent|Could not redeem/);
  });

  it("refused: the panel's reason in the panelist's numbers, and that the history is checked that nothing was taken", async () => {
    const outcome = await card(
      entry('pending', { answer: 'refused', error: short }),
      'The panel refused Northwind Books $10',
    );
    expect(outcome.textContent).toContain(
      'You have 500 points; this reward needs 1,000. Checking your history that nothing was taken.',
    );
    expect(outcome.textContent).not.toMatch(/Nothing was charged|Could not redeem/);
    expect(queryAllByRole(outcome, 'alert')).toHaveLength(0);
  });

  it('refused without a reason of its own: the title says it, the body does not say it twice', async () => {
    const outcome = await card(
      entry('pending', {
        answer: 'refused',
        error: appError('rejected', 'The panel refused the request (HTTP 400).', { status: 400 }),
      }),
      'The panel refused Northwind Books $10',
      5000,
    );
    const text = outcome.querySelector('[role=status]')!.textContent;
    expect(text).toContain('Checking your history that nothing was taken.');
    expect(text).not.toContain('The panel did not accept the redemption.');
  });

  it('unclear: "Checking whether it went through"', async () => {
    const outcome = await card(
      entry('pending', { answer: 'unclear', error: appError('server', 'Conflict', { status: 409 }) }),
      'Checking whether Northwind Books $10 went through',
    );
    expect(outcome.textContent).not.toMatch(/Nothing was charged|Could not redeem|Redeemed/);
  });
});

describe('unknown, checked on alarms: the answer still chooses the words', () => {
  it('success: the panel answered that it went through, and the history does not show it yet', async () => {
    const outcome = await card(
      entry('unknown', { answer: 'success', ...checking }),
      'Checking whether Northwind Books $10 went through',
    );
    await waitFor(() =>
      expect(outcome.textContent).toContain(
        `The panel answered that it went through when you redeemed it at ${clockTime(SENT)}, but your history does not show it yet. The extension keeps checking and shows the outcome here; do not redeem it again before then.`,
      ),
    );
    expect(outcome.textContent).not.toContain('did not answer clearly');
    expect(outcome.textContent).not.toMatch(/Nothing was charged|You spent/);
  });

  it("refused: the panel's reason, and that the extension is checking nothing was taken", async () => {
    const outcome = await card(
      entry('unknown', { answer: 'refused', error: short, ...checking }),
      'The panel refused Northwind Books $10',
    );
    await waitFor(() =>
      expect(outcome.textContent).toContain(
        `The panel refused it when you redeemed it at ${clockTime(SENT)}. The extension is checking your history that nothing was taken and shows the outcome here.`,
      ),
    );
    expect(outcome.textContent).toContain('You have 500 points; this reward needs 1,000.');
    expect(outcome.textContent).not.toMatch(/Nothing was charged|Could not redeem/);
    expect(getByRole(outcome, 'button', 'Check now whether Northwind Books $10 went through')).toBeTruthy();
  });

  it('no answer at all keeps the words it had', async () => {
    const outcome = await card(entry('unknown', checking), 'Checking whether Northwind Books $10 went through');
    await waitFor(() =>
      expect(outcome.textContent).toContain(
        `The panel did not answer clearly when you redeemed it at ${clockTime(SENT)}.`,
      ),
    );
  });
});

describe('settled by the history', () => {
  it('not found after the panel answered success: contact the panel before redeeming again, and no "Redeem again"', async () => {
    const outcome = await card(
      entry('not_found', { answer: 'success' }),
      'Northwind Books $10 was not found in your history',
      5000,
    );
    expect(outcome.textContent).toContain(
      `The panel answered that it went through, but it has not appeared in your history in 30 minutes. Contact ${PANEL} before redeeming it again.`,
    );
    expect(outcome.textContent).not.toContain('You can redeem it again');
    expect(queryAllByRole(outcome, 'button', /again/)).toHaveLength(0);
  });

  it('done although the panel refused a copy: still "Redeemed" with the points spent, and one line that the history shows it', async () => {
    const outcome = await card(
      entry('done', {
        answer: 'refused',
        error: short,
        balanceAfter: 500,
        redemption: redemption(70, books, '2026-01-02T10:00:00'),
      }),
      'Redeemed Northwind Books $10',
    );
    expect(outcome.textContent).toContain('The panel answered with a refusal, but your history shows the redemption.');
    expect(outcome.textContent).toContain('You spent 1,000 points. Your balance is now 500 points.');
    expect(outcome.textContent).not.toMatch(
      /Nothing was charged|Could not redeem|You have 500 points; this reward needs/,
    );
    expect(outcome.className).toContain('notice-ok');
  });

  it('a failed entry without the history read behind it never says "Nothing was charged"', async () => {
    const outcome = await card(
      entry('failed', { answer: 'refused', error: short }),
      'Could not redeem Northwind Books $10',
    );
    expect(outcome.textContent).not.toContain('Nothing was charged');
    expect(getByRole(outcome, 'link', 'Check your history before trying again.')).toBeTruthy();
  });

  it('failed with the read behind it says "Nothing was charged"', async () => {
    const outcome = await card(
      entry('failed', { answer: 'refused', error: { ...short, nothingCharged: true } }),
      'Could not redeem Northwind Books $10',
    );
    expect(outcome.textContent).toContain('You have 500 points; this reward needs 1,000. Nothing was charged.');
  });

  it('recorded twice: what the history shows, with the caveat that the panelist may have redeemed it again', async () => {
    const outcome = await card(
      entry('done', {
        answer: 'success',
        balanceAfter: 0,
        redemption: redemption(70, books, '2026-01-02T10:00:00'),
        duplicates: [redemptionKey(redemption(71, books, '2026-01-02T10:00:00'))],
      }),
      'Redeemed Northwind Books $10',
      0,
    );
    expect(outcome.textContent).toContain(
      `The panel's history shows this redemption twice, 2 × 1,000 points. If you did not redeem it again yourself, contact ${PANEL} to reverse one.`,
    );
  });
});

describe('words beside the truth', () => {
  it('one redeem the panel recorded 4 times: the points spent are what the history shows, 4 × the cost, never the cost once', async () => {
    const copies = [71, 72, 73].map((id) => redemptionKey(redemption(id, gems, '2026-01-02T10:00:00')));
    const outcome = await card(
      entry('done', {
        rewardId: rid(5),
        rewardName: 'Gem Card',
        points: 200,
        answer: 'unclear',
        balanceBefore: 1000,
        balanceAfter: 200,
        redemption: redemption(70, gems, '2026-01-02T10:00:00'),
        duplicates: copies,
      }),
      'Redeemed Gem Card',
      200,
    );
    expect(outcome.textContent).toContain("The panel's history shows this redemption 4 times, 4 × 200 points.");
    expect(outcome.textContent).toContain('You spent 800 points. Your balance is now 200 points.');
    expect(outcome.textContent).not.toContain('You spent 200 points');
  });
});

describe('a failed redemption says where its points are', () => {
  const failedText = `It did not go through. Your points have not been returned yet. They come back if the redemption is refunded; if they are not back within a few days, contact ${PANEL}.`;

  it('on the outcome card, once the history says it failed', async () => {
    const outcome = await card(
      entry('done', {
        balanceAfter: 500,
        redemption: redemption(70, books, '2026-01-02T10:00:00', { failed: true, failed_reason: 'Out of stock' }),
      }),
      'Redeemed Northwind Books $10',
    );
    expect(outcome.textContent).toContain(failedText);
  });

  it('refunded: the points were returned, nothing more to do', async () => {
    const outcome = await card(
      entry('done', {
        balanceAfter: 1500,
        redemption: redemption(70, books, '2026-01-02T10:00:00', { failed: true, refunded: true }),
      }),
      'Redeemed Northwind Books $10',
    );
    expect(outcome.textContent).toContain('Your points were returned.');
    expect(outcome.textContent).not.toContain('have not been returned');
  });

  it('as the latest redemption below the rewards', async () => {
    await seed({
      rewards: [amazon, books],
      balance: 500,
      ledger: null,
      history: [redemption(70, books, '2026-01-02T10:00:00', { failed: true })],
    });
    const root = mount();
    const latest = await waitFor(() => getByRole(root, 'region', 'Latest redemption'));
    expect(latest.textContent).toContain(failedText);
  });
});

describe('German', () => {
  it('a refusal while the history is read, and a success the history does not show yet', async () => {
    installI18n('de');
    const refused = await card(
      entry('pending', { answer: 'refused', error: short }),
      'Das Panel hat Northwind Books $10 abgelehnt',
    );
    expect(refused.textContent).toContain(
      'Sie haben 500 Punkte; diese Prämie kostet 1.000. Ihr Verlauf wird darauf geprüft, dass nichts abgebucht wurde.',
    );
    unmount();
    fakeBrowser.reset();
    const unknown = await card(
      entry('unknown', { answer: 'success', ...checking }),
      'Wird geprüft: Wurde Northwind Books $10 eingelöst?',
    );
    await waitFor(() =>
      expect(unknown.textContent).toContain(
        `Das Panel hat auf Ihre Einlösung um ${clockTime(SENT)} geantwortet, dass sie erfolgt ist, aber Ihr Verlauf zeigt sie noch nicht.`,
      ),
    );
  });
});
