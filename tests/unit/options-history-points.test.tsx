/**
 * The options page's history says where a failed redemption's points are (not back until it is
 * refunded, and whom to ask), and a Confirm the history shows more than once is told with the
 * caveat that the panelist may have redeemed it again: the same sentence as the popup and the
 * notification.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { HistorySection } from '../../components/options/HistorySection';
import { words } from '../../entrypoints/background/notify/notifications';
import { sendMessage } from '../../utils/messages';
import { recordedAgainText } from '../../utils/recorded-again';
import { settings } from '../../utils/settings';
import { duplicatesItem, historyItem } from '../../utils/storage-items';
import { installI18n } from './i18n-setup';
import * as page from './options-fixtures';
import { giftCard, redemption, waitFor } from './popup-fixtures';
import { redemptionKey } from '../../utils/ids';

vi.mock('../../utils/messages', () => ({ sendMessage: vi.fn() }));

const send = sendMessage as unknown as page.SendMock;
const books = giftCard(2, 'Northwind Books $10', 1000);
const PANEL = settings.panelName;
const CAVEAT = `The panel's history shows this redemption twice, 2 × 1,000 points. If you did not redeem it again yourself, contact ${PANEL} to reverse one.`;

let container: HTMLElement;
const rows = () => [...container.querySelectorAll('.history-row')] as HTMLElement[];
/** The duplicate notice's title and sentence, each as read. */
const noticeLines = () => [...container.querySelectorAll('.notice p')].map((p) => p.textContent);
/** The history section, once the stored history is read (its rows are on screen). */
async function mountRead(): Promise<void> {
  await page.mountInto(container, <HistorySection />);
  await waitFor(() => expect(rows().length).toBeGreaterThan(0));
}

beforeEach(() => {
  fakeBrowser.reset();
  container = page.newContainer();
  send.mockReset();
  send.mockResolvedValue({ ok: true, data: null });
});
afterEach(() => page.dropContainer(container));

describe('a failed redemption in the history', () => {
  it('says its points are not back yet, that they come back if it is refunded, and whom to ask; a refunded one does not', async () => {
    await historyItem.setValue({
      data: [
        redemption(1, books, '2026-01-03T10:00:00', {
          failed: true,
          failed_reason: 'Gift card out of stock for this denomination',
        }),
        redemption(2, books, '2026-01-02T10:00:00', { failed: true, refunded: true }),
        redemption(3, books, '2026-01-01T10:00:00', { processed: true }),
      ],
      fetchedAt: Date.now(),
    });
    await mountRead();
    const [failed, refunded, complete] = rows();
    expect(failed!.querySelector('.state')?.textContent).toBe('Failed: Gift card out of stock for this denomination');
    expect(failed!.querySelector('.state-next')?.textContent).toBe(
      `Your points have not been returned yet. They come back if the redemption is refunded; if they are not back within a few days, contact ${PANEL}.`,
    );
    expect(refunded!.querySelector('.state')?.textContent).toBe('Points returned');
    expect(refunded!.querySelector('.state-next')).toBeNull();
    expect(complete!.querySelector('.state-next')).toBeNull();
  });

  it('in German', async () => {
    installI18n('de');
    await historyItem.setValue({
      data: [redemption(1, books, '2026-01-03T10:00:00', { failed: true })],
      fetchedAt: Date.now(),
    });
    await mountRead();
    expect(rows()[0]!.querySelector('.state-next')?.textContent).toBe(
      `Ihre Punkte wurden noch nicht zurückgebucht. Sie kommen zurück, wenn die Einlösung erstattet wird; sind sie nach einigen Tagen nicht zurück, wenden Sie sich an ${PANEL}.`,
    );
  });
});

describe('a Confirm the history shows more than once', () => {
  /** The record of one Confirm the panel recorded twice, its redemptions whole (id, reward, time). */
  const recordedTwice = {
    requestId: 'r',
    rewardName: 'Northwind Books $10',
    points: 1000,
    redemptions: [
      redemptionKey(redemption(7, books, '2026-01-03T10:00:00')),
      redemptionKey(redemption(8, books, '2026-01-03T10:00:01')),
    ],
  };

  it('is told with the caveat above the list, in the same words as the notification', async () => {
    await historyItem.setValue({
      data: [redemption(7, books, '2026-01-03T10:00:00'), redemption(8, books, '2026-01-03T10:00:01')],
      fetchedAt: Date.now(),
    });
    await duplicatesItem.setValue([recordedTwice]);
    await mountRead();
    await waitFor(() => expect(noticeLines()).toEqual(['Northwind Books $10 was recorded more than once', CAVEAT]));
    // The name one unit in its own direction, as in the popup's Confirm.
    expect(container.querySelector('.notice strong bdi')?.textContent).toBe('Northwind Books $10');
    const told = words({
      id: 'duplicate:r',
      kind: 'duplicate',
      rewardName: 'Northwind Books $10',
      copies: 2,
      points: 1000,
    });
    expect([told.title, told.message]).toEqual(noticeLines());
  });

  it("puts no punctuation of its own between the reward's name and the words (French spaces its colon)", async () => {
    installI18n('fr');
    await historyItem.setValue({
      data: [redemption(7, books, '2026-01-03T10:00:00'), redemption(8, books, '2026-01-03T10:00:01')],
      fetchedAt: Date.now(),
    });
    await duplicatesItem.setValue([recordedTwice]);
    await mountRead();
    await waitFor(() => expect(noticeLines()[0]).toBe('Northwind Books $10 a été enregistré plusieurs fois'));
    expect(container.querySelector('.notice')?.textContent).not.toContain('$10:');
  });

  it('marks rows by whole redemption: an id the panel gave again to a later redemption is not a copy to reverse', async () => {
    // The panel reversed copy 8 and, numbering max + 1, gave its id to the panelist’s next redemption.
    const next = redemption(8, books, '2026-02-01T09:00:00');
    await historyItem.setValue({ data: [next, redemption(7, books, '2026-01-03T10:00:00')], fetchedAt: Date.now() });
    await duplicatesItem.setValue([recordedTwice]);
    await mountRead();
    // Marked once the duplicates' own read is in.
    await waitFor(() => expect(rows()[1]?.querySelector('.recorded-again')).not.toBeNull());
    const [later, first] = rows();
    expect(later!.querySelector('.recorded-again')).toBeNull();
    expect(first!.querySelector('.recorded-again')).not.toBeNull();
  });

  it('with what one cost unknown (an entry an older version kept), the sum is left out, never a "?"', async () => {
    await historyItem.setValue({
      data: [redemption(7, books, '2026-01-03T10:00:00'), redemption(8, books, '2026-01-03T10:00:01')],
      fetchedAt: Date.now(),
    });
    await duplicatesItem.setValue([{ ...recordedTwice, points: null }]);
    await mountRead();
    await waitFor(() =>
      expect(noticeLines()).toEqual([
        'Northwind Books $10 was recorded more than once',
        `The panel's history shows this redemption twice. If you did not redeem it again yourself, contact ${PANEL} to reverse one.`,
      ]),
    );
    expect(recordedAgainText(3, null)).toBe(
      `The panel's history shows this redemption 3 times. If you did not redeem it again yourself, contact ${PANEL} to reverse the extra ones.`,
    );
    installI18n('pl');
    expect(recordedAgainText(5, null)).toBe(
      `Historia panelu pokazuje tę wymianę 5 razy. Jeśli kolejne wymiany nie były Twoje, skontaktuj się z ${PANEL}, aby anulować nadmiarowe.`,
    );
  });

  it('three or more', () => {
    expect(recordedAgainText(3, 200)).toBe(
      `The panel's history shows this redemption 3 times, 3 × 200 points. If you did not redeem it again yourself, contact ${PANEL} to reverse the extra ones.`,
    );
  });
});
