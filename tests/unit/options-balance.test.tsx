import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { BalanceSection } from '../../components/options/BalanceSection';
import { DAY_MS } from '../../utils/balance-trend';
import { balanceHistoryItem, type BalanceSample } from '../../utils/storage-items';
import { installI18n } from './i18n-setup';
import * as page from './options-fixtures';

const NOW = Date.UTC(2026, 10, 23, 12);
const at = (daysAgo: number, points: number): BalanceSample => ({ at: NOW - daysAgo * DAY_MS, points });
let container: HTMLElement;

beforeEach(() => {
  fakeBrowser.reset();
  container = page.newContainer();
});
afterEach(() => page.dropContainer(container));

const summary = () => container.querySelector('.balance-summary strong')?.textContent;
const chart = () => container.querySelector('svg.balance-chart path');

async function show(samples: BalanceSample[]): Promise<void> {
  await balanceHistoryItem.setValue(samples);
  await page.mountInto(container, <BalanceSection now={NOW} />);
}

describe('balance over time', () => {
  it('says the chart starts once the balance changes, without drawing one', async () => {
    await show([at(2, 2500)]);
    expect(container.textContent).toContain('The chart starts once your balance changes');
    expect(chart()).toBeNull();
  });

  it('draws the last 30 days with the change in words, and 90 and 365 on choice', async () => {
    await show([at(200, 100), at(60, 1000), at(20, 1500), at(3, 2250)]);
    expect(summary()).toBe('+1,250 points in the last 30 days');
    expect(chart()?.getAttribute('d')).toMatch(/^M 0\.0 .* H 600$/);
    expect(container.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
    expect(container.textContent).toContain('From 1,000 to 2,250 points');

    await page.click(page.choice(container, 'Period', '90 days'));
    expect(summary()).toBe('+2,150 points in the last 90 days');
    await page.click(page.choice(container, 'Period', '365 days'));
    expect(summary()).toBe('+2,150 points since May 7, 2026');
  });

  it('a loss, one point, and no change', async () => {
    await show([at(40, 3000), at(10, 500)]);
    expect(summary()).toBe('−2,500 points in the last 30 days');
    await page.unmountFrom(container);
    await show([at(40, 3000), at(10, 3001)]);
    expect(summary()).toBe('+1 point in the last 30 days');
    await page.unmountFrom(container);
    await show([at(50, 3000), at(40, 3001)]);
    expect(summary()).toBe('No change in the last 30 days');
  });

  it('in German', async () => {
    installI18n('de');
    await show([at(60, 1000), at(20, 1500), at(3, 2250)]);
    expect(summary()).toBe('+1.250 Punkte in den letzten 30 Tagen');
    expect(container.querySelector('h2')?.textContent).toBe('Punktestand im Zeitverlauf');
  });
});
