/** The balance over time, with its axes, its redemptions, a keyboard readout, and the popup's earning figure. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { BalanceSection } from '../../components/options/BalanceSection';
import { DAY_MS, type BalanceSample } from '../../utils/balance-trend';
import { balanceHistoryItem, historyItem, popupViewItem } from '../../utils/storage-items';
import { installI18n } from './i18n-setup';
import * as page from './options-fixtures';
import { giftCard, redemption, waitFor } from './popup-fixtures';

const NOW = Date.UTC(2026, 10, 23, 12);
const at = (daysAgo: number, points: number): BalanceSample => ({ at: NOW - daysAgo * DAY_MS, points });
const iso = (daysAgo: number) => new Date(NOW - daysAgo * DAY_MS).toISOString().slice(0, 19);
let container: HTMLElement;

beforeEach(() => {
  fakeBrowser.reset();
  container = page.newContainer();
});
afterEach(() => page.dropContainer(container));

const summary = () => container.querySelector('.balance-summary strong')?.textContent;
const range = () => container.querySelector('.balance-summary .joined-then')?.textContent;
const chart = () => container.querySelector('svg.balance-chart path');
const slider = () => container.querySelector<HTMLElement>('[role=slider]')!;
const key = async (k: string) => {
  slider().dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
  await page.settle();
};

/**
 * The section once its samples are read (it says nothing of them before), with the history read
 * and nothing in it refunded unless a test stores its own (or `historyRead` is false), and the
 * balance read at `readAt` (now unless a test says when; null: no read in the popup view) finding
 * the last sample's points.
 */
async function show(samples: BalanceSample[], historyRead = true, readAt: number | null = NOW): Promise<void> {
  await balanceHistoryItem.setValue(samples);
  if (historyRead && !(await historyItem.getValue())) await historyItem.setValue({ data: [], fetchedAt: NOW });
  const points = samples.at(-1)?.points ?? null;
  const rewards = {
    balance: { points, source: 'rewards' as const },
    fetchedAt: readAt ?? 0,
    total: 0,
    first: [],
    next: null,
  };
  await popupViewItem.setValue(readAt === null ? null : { rewards, latest: null });
  await page.mountInto(container, <BalanceSection now={NOW} />);
  await waitFor(() => expect(container.querySelector('#balance')?.getAttribute('aria-busy')).toBeNull());
}

describe('balance over time', () => {
  it('says the chart starts once the balance changes, without drawing one', async () => {
    await show([at(2, 2500)]);
    expect(container.textContent).toContain('The chart starts once your balance changes');
    expect(chart()).toBeNull();
  });

  it('on its first day, one line: no chart of one day (“Nov 23 · Nov 23 · Today”), no “no points earned since” today', async () => {
    await show([at(0.4, 2000), at(0.05, 2500)]);
    expect(chart()).toBeNull();
    expect(container.querySelector('.balance-summary')).toBeNull();
    expect(container.querySelector('.balance-first-day')?.textContent).toBe(
      'Your balance is 2,500 points today. The chart starts once it has more than a day to show.',
    );
    expect(container.textContent).not.toMatch(/No points earned|since Nov 23/);
    expect(container.querySelector('fieldset')).toBeNull();
    // A day later there is a chart.
    await page.unmountFrom(container);
    await show([at(1.2, 2000), at(0.05, 2500)]);
    expect(chart()).not.toBeNull();
  });

  it('says what was earned (the popup’s figure) and what was spent, never netted, for 30, 90 and 365 days', async () => {
    await show([at(200, 100), at(60, 1000), at(20, 1500), at(10, 1000), at(3, 2250)]);
    expect(summary()).toBe('1,750 points earned in the last 30 days. You spent 500 points.');
    expect(chart()?.getAttribute('d')).toMatch(/^M 0\.0 .* H 600$/);
    expect(container.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
    // Where the chart starts and ends, dated: 1,000 + 1,750 − 500 is 2,250.
    expect(range()).toBe(' · From 1,000 on Oct 24 to 2,250 points today');

    await page.click(page.choice(container, 'Period', '90 days'));
    expect(summary()).toBe('2,650 points earned in the last 90 days. You spent 500 points.');
    await page.click(page.choice(container, 'Period', '365 days'));
    expect(summary()).toBe('2,650 points earned since May 7, 2026. You spent 500 points.');
  });

  it('with the history unread, nothing is said earned: a rise may be a refund', async () => {
    await show([at(40, 1000), at(20, 1500), at(3, 2000)], false);
    expect(chart()).not.toBeNull();
    expect(container.querySelector('.balance-summary')?.textContent ?? '').not.toMatch(/earned/);
  });

  it('read days ago (a panel down, a key refused): the period ends at that read, dated, never "today"', async () => {
    // The last read, 35 days ago, found 1,200; nothing has been read since.
    await show([at(40, 1000), at(35, 1200)], true, NOW - 35 * DAY_MS);
    expect(summary()).toBe('200 points earned between Oct 14, 2026 and Oct 19, 2026');
    expect(range()).toBe(' · From 1,000 on Oct 14 to 1,200 points on Oct 19');
    expect(container.textContent).not.toMatch(/today|in the last 30 days/i);
    // A read today that found the balance unchanged: current again.
    await page.unmountFrom(container);
    await show([at(40, 1000), at(35, 1200)]);
    expect(range()).toBe(' · From 1,200 on Oct 24 to 1,200 points today');
    expect(summary()).toBe('No points earned in the last 30 days');
  });

  it('nothing earned, and one point', async () => {
    await show([at(40, 3000), at(10, 500)]);
    expect(summary()).toBe('No points earned in the last 30 days. You spent 2,500 points.');
    await page.unmountFrom(container);
    await show([at(40, 3000), at(10, 3001)]);
    expect(summary()).toBe('1 point earned in the last 30 days');
  });

  it('has dates and values on its axes, marks redemptions, and reads out a point from the keyboard', async () => {
    const coffee = giftCard(1, 'Bluefin Coffee $5', 500);
    await historyItem.setValue({ data: [redemption(7, coffee, iso(10))], fetchedAt: NOW });
    await show([at(60, 1000), at(20, 1500), at(10, 1000), at(3, 2250)]);
    // Round values on the axis, not the lowest, middle and highest points.
    expect([...container.querySelectorAll('.chart-y span')].map((s) => s.textContent)).toEqual([
      '2,500',
      '2,000',
      '1,500',
      '1,000',
    ]);
    expect([...container.querySelectorAll('.chart-x span')].map((s) => s.textContent)).toEqual([
      'Oct 24',
      'Nov 8',
      'Today',
    ]);
    // The redemption's mark comes with the history's rows, read after its head.
    await waitFor(() => expect(container.querySelectorAll('.chart-mark')).toHaveLength(1));
    // A slider over the chart's stops, starting at the latest; the arrow keys move along it.
    const s = slider();
    expect(s.getAttribute('aria-label')).toBe('Balance chart: use the arrow keys to go through it');
    expect(s.tabIndex).toBe(0);
    expect(s.getAttribute('aria-valuetext')).toMatch(/^Nov 20, 2026, .*: balance 2,250 points$/);
    await key('ArrowLeft');
    // The fall of the balance says so.
    expect(s.getAttribute('aria-valuetext')).toMatch(/^Nov 13, 2026, .*: balance fell by 500 points to 1,000 points$/);
    await key('ArrowLeft');
    expect(s.getAttribute('aria-valuetext')).toMatch(/^Nov 13, 2026, .*: redeemed Bluefin Coffee \$5 for 500 points$/);
    expect(container.querySelector('.chart-readout')?.textContent).toBe(s.getAttribute('aria-valuetext'));
    await key('Home');
    expect(s.getAttribute('aria-valuetext')).toMatch(/^Oct 24, 2026, .*: balance 1,000 points$/);
    await key('End');
    expect(s.getAttribute('aria-valuenow')).toBe(s.getAttribute('aria-valuemax'));
  });

  it('on a touch screen, a vertical swipe that starts on the chart scrolls the page; a sideways one reads along it', async () => {
    await show([at(60, 1000), at(20, 1500), at(10, 1000), at(3, 2250)]);
    const style = document.head.appendChild(document.createElement('style'));
    style.textContent = readFileSync(join(__dirname, '../../entrypoints/options/style.css'), 'utf8');
    try {
      const s = slider();
      // The browser keeps vertical panning; only the sideways move is the chart's.
      expect(getComputedStyle(s).touchAction).toBe('pan-y');
      // The chart reads along its width only: a point is picked by how far across, whatever the height.
      s.getBoundingClientRect = () => new DOMRect(0, 0, 300, 160);
      s.dispatchEvent(new PointerEvent('pointerdown', { clientX: 1, clientY: 150, bubbles: true }));
      await waitFor(() => expect(s.getAttribute('aria-valuenow')).toBe('0'));
    } finally {
      style.remove();
    }
  });

  it('the summary adds up: it starts where the chart starts, dated, not at the lowest point', async () => {
    // The case: about 1,450 thirty days ago, a low of 1,190 after a redemption, 2,500 today.
    await show([at(45, 1450), at(25, 1690), at(20, 1190), at(16, 1600), at(11, 1850), at(7, 2000), at(3, 2500)]);
    expect(summary()).toBe('1,550 points earned in the last 30 days. You spent 500 points.');
    expect(range()).toBe(' · From 1,450 on Oct 24 to 2,500 points today');
    expect(1450 + 1550 - 500).toBe(2500);
    expect([...container.querySelectorAll('.chart-y span')].map((s) => s.textContent)).toEqual([
      '2,500',
      '2,000',
      '1,500',
      '1,000',
    ]);
    expect(container.textContent).not.toContain('1,190 to');
  });

  it('marks every fall of the balance, with or without a redemption in the history to name it', async () => {
    await show([at(45, 1450), at(25, 1690), at(20, 1190), at(3, 2500)]);
    await page.settle();
    // The step down drawn apart and marked where it lands; no redemption of the history is in the period.
    expect(container.querySelectorAll('svg .balance-chart-drop')).toHaveLength(1);
    expect(container.querySelectorAll('.chart-drop')).toHaveLength(1);
    expect(container.querySelectorAll('.chart-mark')).toHaveLength(0);
    const drop = container.querySelector<HTMLElement>('.chart-drop')!;
    // At the low point: 1,190 of an axis from 1,000 to 2,500.
    expect(parseFloat(drop.style.insetBlockStart)).toBeCloseTo(((2500 - 1190) / 1500) * 100, 1);
    await key('ArrowLeft');
    expect(slider().getAttribute('aria-valuetext')).toMatch(/: balance fell by 500 points to 1,190 points$/);
  });

  it('points the panel gave back are said apart, never as earned', async () => {
    const coffee = giftCard(1, 'Bluefin Coffee $5', 500);
    await historyItem.setValue({
      data: [redemption(7, coffee, iso(12), { failed: true, refunded: true, updated_at: iso(10.01) })],
      fetchedAt: NOW,
    });
    await show([at(45, 1450), at(25, 1750), at(12, 1250), at(10, 1750), at(3, 2000)]);
    // Without a popup view, the refunds come from the history's rows, read after its head.
    await waitFor(() =>
      expect(summary()).toBe(
        '550 points earned in the last 30 days. You spent 500 points. 500 points came back from redemptions that did not go through.',
      ),
    );
    expect(range()).toBe(' · From 1,450 on Oct 24 to 2,000 points today');
  });

  it('in German', async () => {
    installI18n('de');
    await show([at(60, 1000), at(20, 1500), at(3, 2250)]);
    expect(summary()).toBe('1.250 Punkte in den letzten 30 Tagen verdient');
    expect(range()).toBe(' · Von 1.000 am 24. Okt. auf heute 2.250 Punkte');
    expect(container.querySelector('h2')?.textContent).toBe('Punktestand im Zeitverlauf');
    expect(container.querySelector('.chart-x span:last-child')?.textContent).toBe('Heute');
    expect(slider().getAttribute('aria-valuetext')).toMatch(/: Punktestand 2\.250 Punkte$/);
  });
});
