/**
 * Every redemption still being checked stays in view until the history settles it, whatever
 * happened to its card (a newer redeem took the card, the worker restarted): the popup lists those
 * the card does not show, newest first, each with "Check now", and every reward with one keeps its
 * Redeem held back with the reason. One that settles while the popup is open says what it became.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { rewardsPart } from '../../entrypoints/background/popup-view';
import { FIRST_FRAME_ITEMS, paintFirstFrame } from '../../components/popup/first-frame/first-frame';
import { clockTime } from '../../components/popup/when';
import { settledSeenItem } from '../../components/popup/redeem/settled-seen-item';
import { outcomeSeenItem } from '../../components/popup/redeem/outcome-seen-item';
import { appError } from '../../utils/errors';
import type { Result } from '../../utils/messages';
import {
  accountOf,
  goalItem,
  ledgerItem,
  popupViewItem,
  sessionItem,
  settledItem,
  unsettledItem,
  type LedgerEntry,
} from '../../utils/storage-items';
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
const tea = giftCard(3, 'Tea Card', 200);
const REWARDS = [amazon, books, tea];
const calls = (type: string) => background.calls.filter((c) => c.type === type);
/** A reward's Redeem button, once the catalogue's own read (after the ledger's) has put its row on screen. */
const row = (root: HTMLElement, name: string) => waitFor(() => getByRole(root, 'button', name) as HTMLButtonElement);
const checks = { done: 1, nextAt: Date.now() + 60_000, lastAt: Date.now() - 30_000 };

const open = (reward: typeof amazon, startedAt: number, extra: Partial<LedgerEntry> = {}): LedgerEntry => ({
  requestId: `req-${reward.id}-${startedAt}`,
  rewardId: reward.id,
  rewardName: reward.name,
  points: reward.reward_point_cost,
  startedAt,
  state: 'unknown',
  checks,
  ...extra,
});

const OLDER = open(amazon, Date.now() - 20 * 60_000);
const NEWER = open(books, Date.now() - 5 * 60_000, { answer: 'success' });

beforeEach(() => {
  fakeBrowser.reset();
  background.calls.length = 0;
  background.answers = {};
});
afterEach(unmount);

/** Why a Redeem button is disabled: the text its aria-describedby points at. */
function why(button: HTMLElement): string | null | undefined {
  const id = button.getAttribute('aria-describedby');
  return id ? document.getElementById(id)?.textContent : null;
}

const HELD = 'Held back: your last redemption of it is still being checked';
/** The list by either of its headings: still being checked, or all of it settled. */
const THE_LIST = /^(Still being checked|Redemptions checked)$/;

describe('redemptions still being checked off the card', () => {
  it('are listed newest first, with when each was sent and what the panel said; their rewards are held back', async () => {
    await seed({ rewards: REWARDS, balance: 5000, ledger: null });
    await unsettledItem.setValue([OLDER, NEWER]);
    const root = mount();
    const list = await waitFor(() => getByRole(root, 'region', 'Still being checked'));
    const items = queryAllByRole(list, 'listitem');
    expect(items.map((li) => li.querySelector('strong')!.textContent)).toEqual([
      `Northwind Books $10, redeemed at ${clockTime(NEWER.startedAt)}`,
      `Amazon $5, redeemed at ${clockTime(OLDER.startedAt)}`,
    ]);
    // Each name one unit in its own direction, as in Confirm.
    expect(items.map((li) => li.querySelector('strong bdi')?.textContent)).toEqual([
      'Northwind Books $10',
      'Amazon $5',
    ]);
    expect(items[0]!.textContent).toContain('The panel said it went through; your history does not show it yet.');
    expect(items[1]!.textContent).not.toContain('The panel said');
    expect(getByRole(items[0]!, 'button', 'Check now whether Northwind Books $10 went through').textContent).toBe(
      'Check now',
    );
    expect(getByRole(items[1]!, 'button', 'Check now whether Amazon $5 went through')).toBeTruthy();
    expect(list.textContent).not.toMatch(/Nothing was charged|did not go through/);

    for (const name of ['Redeem Amazon $5', 'Redeem Northwind Books $10']) {
      const redeem = await row(root, name);
      expect(redeem.disabled, name).toBe(true);
      expect(why(redeem), name).toBe(HELD);
    }
    expect((await row(root, 'Redeem Tea Card')).disabled).toBe(false);
  });

  it('a listing being checked holds its twin, which the brand’s picker shows for both', async () => {
    // Alike in brand, value, cost and countries: one choice, Amazon's own id (the cheaper) standing for both.
    const twin = giftCard(4, 'Amazon $5', 500);
    await seed({ rewards: [...REWARDS, twin], balance: 5000, ledger: null });
    await unsettledItem.setValue([open(twin, Date.now() - 60_000)]);
    const root = mount();
    await waitFor(() => getByRole(root, 'region', 'Still being checked'));
    const redeem = await row(root, 'Redeem Amazon $5');
    await waitFor(() => expect(redeem.disabled).toBe(true));
    expect(why(redeem)).toBe(HELD);
    expect((await row(root, 'Redeem Tea Card')).disabled).toBe(false);
  });

  it('a refusal still being checked says so, never "nothing was charged"', async () => {
    await seed({ rewards: REWARDS, balance: 5000, ledger: null });
    await unsettledItem.setValue([
      open(books, Date.now() - 60_000, {
        answer: 'refused',
        error: appError('rejected', 'No points', { status: 402 }),
      }),
    ]);
    const root = mount();
    const list = await waitFor(() => getByRole(root, 'region', 'Still being checked'));
    expect(list.textContent).toContain('The panel refused it; checking that nothing was taken.');
    expect(list.textContent).not.toContain('Nothing was charged');
  });

  it('beside the card of a newer redemption, which keeps its own; the goal is held back too', async () => {
    await seed({
      rewards: REWARDS,
      balance: 5000,
      ledger: ledger('done', {
        rewardId: rid(3),
        rewardName: 'Tea Card',
        points: 200,
        balanceAfter: 5000,
        redemption: redemption(80, tea, '2026-01-02T10:00:00'),
      }),
    });
    await unsettledItem.setValue([OLDER]);
    await goalItem.setValue({ account: accountOf(CONNECTED), rewardId: rid(1), rewardName: 'Amazon $5', setAt: 1 });
    const root = mount();
    await waitFor(() => getByRole(root, 'region', 'Redeemed Tea Card'));
    const list = await waitFor(() => getByRole(root, 'region', 'Still being checked'));
    expect(list.textContent).toContain(`Amazon $5, redeemed at ${clockTime(OLDER.startedAt)}`);
    await waitFor(() => getByRole(root, 'region', /^Your goal\b/));
    const [goal, row] = queryAllByRole(root, 'button', 'Redeem Amazon $5') as HTMLButtonElement[];
    expect(goal!.disabled).toBe(true);
    // Said in the card in words, where "You can redeem it now" would stand, not only in a tooltip.
    expect(why(goal!)).toBe(HELD);
    const card = getByRole(root, 'region', /^Your goal\b/);
    expect(card.textContent).toContain(HELD);
    expect(card.textContent).not.toContain('You can redeem it now');
    expect(row!.disabled).toBe(true);
    expect(why(row!)).toBe(HELD);
    expect((getByRole(root, 'button', 'Redeem Tea Card') as HTMLButtonElement).disabled).toBe(false);
  });

  it('the card being checked stays told when a newer redeem takes its place', async () => {
    const first = { ...OLDER, requestId: 'req-first' };
    await seed({ rewards: REWARDS, balance: 5000, ledger: first });
    const root = mount();
    await waitFor(() => getByRole(root, 'region', 'Checking whether Amazon $5 went through'));
    expect(queryAllByRole(root, 'region', THE_LIST)).toHaveLength(0);
    // The background moves it off the card when Tea Card is redeemed.
    await unsettledItem.setValue([first]);
    await ledgerItem.setValue(ledger('pending', { rewardId: rid(3), rewardName: 'Tea Card', points: 200 }));
    const list = await waitFor(() => getByRole(root, 'region', 'Still being checked'));
    expect(list.textContent).toContain('Amazon $5, redeemed at');
    await ledgerItem.setValue(
      ledger('done', { rewardId: rid(3), rewardName: 'Tea Card', points: 200, balanceAfter: 4800 }),
    );
    await waitFor(() => getByRole(root, 'region', 'Redeemed Tea Card'));
    const redeem = await row(root, 'Redeem Amazon $5');
    expect(redeem.disabled).toBe(true);
    expect(why(redeem)).toBe(HELD);
  });

  it('"Check now" asks the background once, and says when the history does not show it yet', async () => {
    let answer!: (r: Result<unknown>) => void;
    background.answers.checkRedemption = () => new Promise((resolve) => (answer = resolve));
    await seed({ rewards: REWARDS, balance: 5000, ledger: null });
    await unsettledItem.setValue([OLDER]);
    const root = mount();
    const check = await waitFor(() => getByRole(root, 'button', 'Check now whether Amazon $5 went through'));
    check.focus();
    await click(check);
    await waitFor(() => expect(check.getAttribute('aria-disabled')).toBe('true'));
    expect(check.textContent).toBe('Checking…');
    expect(document.activeElement).toBe(check);
    await click(check);
    expect(calls('checkRedemption')).toHaveLength(1);
    answer({ ok: true, data: null });
    const list = getByRole(root, 'region', 'Still being checked');
    await waitFor(() => expect(list.textContent).toContain('Checked just now — not in your history yet.'));
  });

  it('an entry whose last scheduled check could not read the history says so', async () => {
    const unreadAt = Date.now() - 60_000;
    await seed({ rewards: REWARDS, balance: 5000, ledger: null });
    await unsettledItem.setValue([{ ...OLDER, checks: { ...OLDER.checks!, lastAt: null, unreadAt } }]);
    const root = mount();
    const list = await waitFor(() => getByRole(root, 'region', 'Still being checked'));
    expect(list.textContent).toContain(`The check at ${clockTime(unreadAt)} could not read your history.`);
    // By when the checking ends: never "checking" without an end in sight.
    expect(list.textContent).toContain(`The last check is at about ${clockTime(OLDER.startedAt + 30 * 60_000)}.`);
  });

  it('"Check now" shows the error when the check fails', async () => {
    background.answers.checkRedemption = async () => ({
      ok: false,
      error: appError('network', 'The panel could not be reached. Check your connection.'),
    });
    await seed({ rewards: REWARDS, balance: 5000, ledger: null });
    await unsettledItem.setValue([OLDER]);
    const root = mount();
    await click(await waitFor(() => getByRole(root, 'button', 'Check now whether Amazon $5 went through')));
    await waitFor(() =>
      expect(getByRole(root, 'alert').textContent).toBe('The panel could not be reached. Check your connection.'),
    );
  });

  it('one that settles while the popup is open says what it became; its reward is held only while it says to contact the panel', async () => {
    await seed({ rewards: REWARDS, balance: 5000, ledger: null });
    await unsettledItem.setValue([OLDER, NEWER]);
    const root = mount();
    const list = await waitFor(() => getByRole(root, 'region', 'Still being checked'));
    await settledItem.setValue([
      { ...OLDER, state: 'done', finishedAt: Date.now(), redemption: redemption(90, amazon, '2026-01-02T10:00:00') },
    ]);
    await unsettledItem.setValue([NEWER]);
    await waitFor(() =>
      expect(list.textContent).toContain('Amazon $5 is in your redemption history: it went through.'),
    );
    expect(queryAllByRole(list, 'button', 'Check now whether Amazon $5 went through')).toHaveLength(0);
    expect((await row(root, 'Redeem Amazon $5')).disabled).toBe(false);
    expect((await row(root, 'Redeem Northwind Books $10')).disabled).toBe(true);

    // The last one: not found although the panel had said it went through.
    await settledItem.setValue([
      ...(await settledItem.getValue()),
      { ...NEWER, state: 'not_found', finishedAt: Date.now() },
    ]);
    await unsettledItem.setValue([]);
    await waitFor(() =>
      expect(list.textContent).toContain(
        'Northwind Books $10 was not found in your history. The panel answered that it went through',
      ),
    );
    expect(list.isConnected).toBe(true);
    // What the list says is what its row does: held, until the panel is asked, saying why.
    const books = await row(root, 'Redeem Northwind Books $10');
    expect(books.disabled).toBe(true);
    expect(why(books)).toBe(
      'Held back: your last redemption of it is not in your history. Contact Panel Rewards before redeeming it again',
    );
    expect((await row(root, 'Redeem Amazon $5')).disabled).toBe(false);
  });

  it('one that settles while no popup shows it is listed at the next opening, saying what it became, once', async () => {
    await seed({ rewards: REWARDS, balance: 5000, ledger: null });
    await unsettledItem.setValue([NEWER]);
    let root = mount();
    await waitFor(() => getByRole(root, 'region', 'Still being checked'));
    // This opening's first record (none settled yet): without one, the next opening would be an
    // install's first and take every settled one as told.
    await waitFor(async () => expect(await settledSeenItem.getValue()).toEqual([]));
    unmount();
    // The popup is closed when the last check finds nothing, although the panel had said yes.
    await settledItem.setValue([{ ...NEWER, state: 'not_found', finishedAt: Date.now() }]);
    await unsettledItem.setValue([]);

    // The next opening owes word of it: listed with what it became, its reward held as the line says.
    root = mount();
    const list = await waitFor(() => getByRole(root, 'region', 'Redemptions checked'));
    expect(list.textContent).toContain(
      'Northwind Books $10 was not found in your history. The panel answered that it went through',
    );
    expect(queryAllByRole(list, 'button', 'Check now whether Northwind Books $10 went through')).toHaveLength(0);
    const books = await row(root, 'Redeem Northwind Books $10');
    expect(books.disabled).toBe(true);
    expect(why(books)).toBe(
      'Held back: your last redemption of it is not in your history. Contact Panel Rewards before redeeming it again',
    );
    await waitFor(async () => expect(await settledSeenItem.getValue()).toContain(NEWER.requestId));
    unmount();

    // Told once: the opening after that lists nothing, and the panelist decides.
    root = mount();
    await waitFor(async () => expect((await row(root, 'Redeem Northwind Books $10')).disabled).toBe(false));
    expect(queryAllByRole(root, 'region', THE_LIST)).toHaveLength(0);
  });

  it('behind the prompt to reconnect nothing is told, so the reconnected popup tells it', async () => {
    await seed({ rewards: REWARDS, balance: 5000, ledger: null });
    await settledSeenItem.setValue([]);
    await settledItem.setValue([{ ...NEWER, state: 'not_found', finishedAt: Date.now() }]);
    await sessionItem.setValue({ ...CONNECTED, rejected: true });
    const root = mount();
    await waitFor(() => getByRole(root, 'button', /Connect|Reconnect|Sign in/));
    // Nothing was recorded as seen behind it. (An absence: the page's effects run within frames of
    // its paint, so 50 ms lets a wrong record land here; a busy machine could only hide one, never
    // fail a right page.)
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await settledSeenItem.getValue()).toEqual([]);
    // The same account connected again, in the same opening: the list says it, and only now is it recorded.
    await sessionItem.setValue(CONNECTED);
    const list = await waitFor(() => getByRole(root, 'region', 'Redemptions checked'));
    expect(list.textContent).toContain('Northwind Books $10 was not found in your history.');
    await waitFor(async () => expect(await settledSeenItem.getValue()).toEqual([NEWER.requestId]));
  });

  it('one told that the background no longer keeps (another account connected) holds nothing', async () => {
    await seed({ rewards: REWARDS, balance: 5000, ledger: null });
    await settledSeenItem.setValue([]);
    await settledItem.setValue([{ ...NEWER, state: 'not_found', finishedAt: Date.now() }]);
    const root = mount();
    await waitFor(() => getByRole(root, 'region', 'Redemptions checked'));
    expect((await row(root, 'Redeem Northwind Books $10')).disabled).toBe(true);
    await settledItem.setValue([]);
    await waitFor(async () => expect((await row(root, 'Redeem Northwind Books $10')).disabled).toBe(false));
    expect(queryAllByRole(root, 'region', THE_LIST)).toHaveLength(0);
  });

  it('a card seen settled is not told again, though the page closed before it recorded it', async () => {
    await seed({ rewards: REWARDS, balance: 5000, ledger: null });
    // Its card's mark landed, this record not yet, when the popup closed; the card was then closed.
    await settledSeenItem.setValue([]);
    await outcomeSeenItem.setValue(OLDER.requestId);
    // Beside it, one that did settle unseen: the list it is told in is the list the card's is not in.
    await settledItem.setValue([
      { ...OLDER, state: 'done', finishedAt: Date.now() },
      { ...NEWER, state: 'not_found', finishedAt: Date.now() },
    ]);
    const root = mount();
    const list = await waitFor(() => getByRole(root, 'region', 'Redemptions checked'));
    expect(list.textContent).toContain('Northwind Books $10 was not found in your history.');
    expect(list.textContent).not.toContain('Amazon $5');
  });

  it('an install from before the record tells none of the settled ones it kept, and records them', async () => {
    await seed({ rewards: REWARDS, balance: 5000, ledger: null });
    await settledItem.setValue([{ ...OLDER, state: 'not_found', answer: 'success', finishedAt: Date.now() }]);
    const root = mount();
    await row(root, 'Redeem Amazon $5');
    expect(queryAllByRole(root, 'region', THE_LIST)).toHaveLength(0);
    await waitFor(async () => expect(await settledSeenItem.getValue()).toEqual([OLDER.requestId]));
  });

  it('a not-found card offers no Redeem again while the same reward has one still being checked: its row holds it back too', async () => {
    await seed({
      rewards: REWARDS,
      balance: 5000,
      ledger: ledger('not_found', { startedAt: Date.now() - 31 * 60_000, balanceBefore: 5000, balanceAfter: 5000 }),
    });
    await unsettledItem.setValue([OLDER]);
    const root = mount();
    const card = await waitFor(() => getByRole(root, 'region', 'Amazon $5 was not found in your history'));
    // Held back once the list's own read is in (main.tsx reads it before the first render); from then on, no Redeem again.
    const redeem = await row(root, 'Redeem Amazon $5');
    await waitFor(() => expect(redeem.disabled).toBe(true));
    expect(queryAllByRole(card, 'button', /again/)).toHaveLength(0);
    expect(calls('redeem')).toEqual([]);
  });

  it('in German', async () => {
    installI18n('de');
    await seed({ rewards: REWARDS, balance: 5000, ledger: null });
    await unsettledItem.setValue([NEWER]);
    const root = mount();
    const list = await waitFor(() => getByRole(root, 'region', 'Wird noch geprüft'));
    expect(list.textContent).toContain(`Northwind Books $10, eingelöst um ${clockTime(NEWER.startedAt)}`);
    expect(list.textContent).toContain('Laut Panel ist sie erfolgt; Ihr Verlauf zeigt sie noch nicht.');
    expect(getByRole(list, 'button', 'Jetzt prüfen, ob Northwind Books $10 eingelöst wurde')).toBeTruthy();
  });
});

describe('the first frame', () => {
  it('ends above the list, which Preact paints with the rows it holds back', async () => {
    await seed({ rewards: REWARDS, balance: 5000, ledger: null });
    const cache = {
      data: { rewards: REWARDS, balance: { points: 5000, source: 'rewards' as const } },
      fetchedAt: Date.now(),
    };
    await popupViewItem.setValue({ rewards: rewardsPart(cache), latest: null, profile: null, goal: null });
    const root = document.createElement('div');
    document.body.append(root);
    const read = () => fakeBrowser.storage.local.get(FIRST_FRAME_ITEMS.map((item) => item.key));
    paintFirstFrame(root, await read(), Date.now());
    expect(root.querySelectorAll('.reward')).not.toHaveLength(0);
    await unsettledItem.setValue([OLDER]);
    paintFirstFrame(root, await read(), Date.now());
    expect(root.querySelector('.hdr-balance')).not.toBeNull();
    expect(root.querySelectorAll('.reward')).toHaveLength(0);
    // So it does above one that settled while no popup showed it, which App lists there too.
    await unsettledItem.setValue([]);
    paintFirstFrame(root, await read(), Date.now());
    expect(root.querySelectorAll('.reward')).not.toHaveLength(0);
    await settledSeenItem.setValue([]);
    await settledItem.setValue([{ ...OLDER, state: 'done', finishedAt: Date.now() }]);
    paintFirstFrame(root, await read(), Date.now());
    expect(root.querySelectorAll('.reward')).toHaveLength(0);
    root.remove();
  });
});
