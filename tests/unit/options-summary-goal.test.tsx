/**
 * The options page's summary names a goal the panelist set even before the catalogue is read (or
 * when its read failed): "None yet" is said only when no goal is set for this account.
 */
import { createRef } from 'preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { AccountSummary } from '../../components/options/AccountSummary';
import { goalItem, popupViewItem } from '../../utils/storage-items';
import * as page from './options-fixtures';
import { rid } from './test-ids';

const ACCOUNT = 'https://panel.example|abcd';
let container: HTMLElement;

beforeEach(() => {
  fakeBrowser.reset();
  container = page.newContainer();
});
afterEach(() => page.dropContainer(container));

/** The summary's goal line, once its reads have landed. */
async function goalLine(): Promise<string> {
  await page.mountInto(container, <AccountSummary account={ACCOUNT} status="" headingRef={createRef()} />);
  await page.settle();
  const term = [...container.querySelectorAll('dt')].find((dt) => dt.textContent === 'Goal')!;
  return term.nextElementSibling!.textContent ?? '';
}

describe('the summary’s goal', () => {
  it('a goal set while the catalogue is unread is named, never "None yet"', async () => {
    await goalItem.setValue({ account: ACCOUNT, rewardId: rid(7), rewardName: 'Cedar $5', setAt: 1 });
    await popupViewItem.setValue({ rewards: null, latest: null, profile: null, goal: null });
    expect(await goalLine()).toBe('Cedar $5');
  });

  it('"None yet" when no goal is set, or only another account’s', async () => {
    await popupViewItem.setValue({ rewards: null, latest: null, profile: null, goal: null });
    expect(await goalLine()).toMatch(/^None yet/);
    await page.unmountFrom(container);
    await goalItem.setValue({
      account: 'https://other.example|wxyz',
      rewardId: rid(7),
      rewardName: 'Cedar $5',
      setAt: 1,
    });
    expect(await goalLine()).toMatch(/^None yet/);
  });
});
