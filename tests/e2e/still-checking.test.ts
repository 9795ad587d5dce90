/**
 * A redemption whose outcome is still being checked never drops out of sight, in Chromium, driven
 * by visible labels: redeeming another reward takes its card, and it stays listed under "Still
 * being checked", with its own Check now and its Redeem held back, until the history settles it.
 * One that settles there as not found though the panel had said yes keeps its reward's Redeem held,
 * saying to contact the panel, as long as the line says so; one that settles while the popup is
 * closed is told so at the next opening, once.
 *
 * The tests share one browser (a launch costs about 2 CPU-seconds); each opens its own popups.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { axeViolations } from './axe';
import { control, injectFault, serverState } from './control';
import { afterFailure, launchExtension, type ExtensionSession } from './harness';

const REDEEM_PATH = '/v1/panel/redemption';
const NORTHWIND = 'Northwind Books $10 Gift Card'; // 1,000 points
const COFFEE = 'Bluefin Coffee $5 Gift Card'; // 500 points; the seed balance is 2,500
const PAYWAVE = 'PayWave $10 Transfer'; // 1,000 points
const LINDNER = 'Kaufhaus Lindner 15 € Geschenkkarte'; // 1,650 points
const HELD_CHECKING = 'Held back: your last redemption of it is still being checked';
/** The list by either of its headings: still being checked, or every line of it settled. */
const THE_LIST = /^(Still being checked|Redemptions checked)$/;
const HELD_CONTACT =
  'Held back: your last redemption of it is not in your history. Contact Panel Rewards before redeeming it again';

let ext: ExtensionSession;
beforeAll(async () => {
  ext = await launchExtension({ connect: true });
});
afterAll(async () => {
  await ext?.close();
});
// A failed test may leave a fault unused, a goal set or its popup open: the next one starts without them.
afterFailure(async () => {
  await control(ext, '/faults', 'DELETE');
  await (await ext.worker()).evaluate(() => chrome.storage.local.remove('goal'));
  for (const page of ext.context.pages()) if (page.url().endsWith('/popup.html')) await page.close();
});

async function openPopup(): Promise<Page> {
  const popup = await ext.openPage('popup.html');
  await popup.setViewportSize({ width: 400, height: 600 });
  return popup;
}

async function confirmRedeeming(popup: Page, name: string): Promise<void> {
  await popup.getByRole('button', { name: `Redeem ${name}` }).click();
  await popup.getByRole('button', { name: `Confirm redeeming ${name}` }).click();
}

/** What a button says of itself beside it: the text its `aria-describedby` names, or null without one. */
async function describedBy(popup: Page, button: Locator): Promise<string | null> {
  const id = await button.getAttribute('aria-describedby');
  return id ? popup.locator(`[id="${id}"]`).textContent() : null;
}

/** A line of the list by the reward it names, as it starts: "<reward>, redeemed at <time>". */
const lineOf = (list: Locator, name: string): Locator =>
  list.getByRole('listitem').filter({ hasText: new RegExp(`^${name.replace(/\$/g, '\\$')}, redeemed at `) });

/**
 * Moves the Confirm of `name` 31 minutes back in `ledger:unsettled` (sent, answered, its checks) and
 * fires the check alarm now: the background's own checks then settle it (see the test below).
 */
async function settleAsIfLate(name: string): Promise<void> {
  const worker = await ext.worker();
  await worker.evaluate(
    async ({ name, back }) => {
      type Entry = {
        rewardName: string;
        startedAt: number;
        answeredAt?: number;
        checks?: { nextAt: number | null; lastAt: number | null };
      };
      const earlier = <T extends number | null | undefined>(at: T): T => (typeof at === 'number' ? at - back : at) as T;
      await chrome.alarms.clear('redemption-check');
      const { 'ledger:unsettled': open = [] } = await chrome.storage.local.get<{ 'ledger:unsettled'?: Entry[] }>(
        'ledger:unsettled',
      );
      const moved = open.map((entry) =>
        entry.rewardName !== name
          ? entry
          : {
              ...entry,
              startedAt: earlier(entry.startedAt),
              answeredAt: earlier(entry.answeredAt),
              ...(entry.checks
                ? {
                    checks: {
                      ...entry.checks,
                      nextAt: earlier(entry.checks.nextAt),
                      lastAt: earlier(entry.checks.lastAt),
                    },
                  }
                : {}),
            },
      );
      await chrome.storage.local.set({ 'ledger:unsettled': moved });
      await chrome.alarms.create('redemption-check', { when: Date.now() });
    },
    { name, back: 31 * 60_000 },
  );
}

/**
 * A redeem of `name` the panel answers "success" and never records (the history never shows it),
 * then Coffee redeemed, whose card takes its place, from a balance of 2,500 whatever came before:
 * `name` goes to the list. The popup it happened in.
 */
async function saidYesThenListed(name: string): Promise<Page> {
  await control(ext, '/state', 'PATCH', { balance: 2_500 });
  const popup = await openPopup();
  await popup.getByRole('button', { name: 'Refresh: your points and rewards', exact: true }).click();
  await expect.poll(() => popup.locator('.hdr-balance').textContent()).toBe('2,500 points');
  await injectFault(ext, { path: REDEEM_PATH, status: 200, body: JSON.stringify({ message: 'success' }) });
  await confirmRedeeming(popup, name);
  const card = popup.getByRole('region', { name: `Checking whether ${name} went through` });
  await card.getByRole('button', { name: `Check now whether ${name} went through` }).waitFor({ timeout: 30_000 });
  await confirmRedeeming(popup, COFFEE);
  await popup.getByRole('region', { name: `Redeemed ${COFFEE}` }).waitFor({ timeout: 30_000 });
  return popup;
}

test('a redemption being checked stays listed, with its Check now and its Redeem held, when another reward is redeemed, until the history settles it', async () => {
  const popup = await openPopup();

  // The panel answers Northwind's redeem with a 500 and the history shows nothing yet: nobody knows.
  // (Not a dropped connection: Chromium would re-send the request, and the copy would go through.)
  await injectFault(ext, { path: REDEEM_PATH, status: 500 });
  await confirmRedeeming(popup, NORTHWIND);
  const card = popup.getByRole('region', { name: `Checking whether ${NORTHWIND} went through` });
  await card.getByRole('button', { name: `Check now whether ${NORTHWIND} went through` }).waitFor({ timeout: 30_000 });

  // The panelist redeems another reward meanwhile: its card takes Northwind's place.
  await confirmRedeeming(popup, COFFEE);
  await popup.getByRole('region', { name: `Redeemed ${COFFEE}` }).waitFor({ timeout: 30_000 });
  expect(await card.count()).toBe(0);

  // Northwind stays in view, with its own Check now, and its Redeem is held back, saying why.
  const list = popup.getByRole('region', { name: THE_LIST });
  await popup.getByRole('region', { name: 'Still being checked' }).waitFor();
  await list.getByText(new RegExp(`^${NORTHWIND.replace(/\$/g, '\\$')}, redeemed at `)).waitFor();
  const held = popup.getByRole('button', { name: `Redeem ${NORTHWIND}` });
  expect(await held.isDisabled()).toBe(true);
  const why = await held.getAttribute('aria-describedby');
  expect(await popup.locator(`#${why}`).textContent()).toBe(HELD_CHECKING);
  expect(await axeViolations(popup)).toEqual([]);

  // The panel records it after all (it committed late); Check now finds it and the line says so.
  const state = await serverState(ext);
  const northwind = state.rewards.find((r) => r.name === NORTHWIND)!;
  await fetch(`${ext.sandbox.url}${REDEEM_PATH}?id=${northwind.id}`, {
    headers: { Authorization: `Bearer ${ext.sandbox.token}` },
  });
  await list.getByRole('button', { name: `Check now whether ${NORTHWIND} went through` }).click();
  await list.getByText(`${NORTHWIND} is in your redemption history: it went through.`).waitFor({ timeout: 30_000 });
  // Nothing in the list is being checked any more, and its heading no longer says so.
  await popup.getByRole('region', { name: 'Redemptions checked' }).waitFor();
  // The header follows: the balance is read again whenever a check settles a redemption.
  await expect.poll(() => popup.locator('.hdr-balance').textContent()).toBe('1,000 points');
  await expect.poll(() => held.isDisabled()).toBe(false);
  expect(await popup.getByText(/Nothing was charged/).count()).toBe(0);
  expect(await axeViolations(popup)).toEqual([]);
  await popup.close();
}, 90_000);

/**
 * The list's own case of the "contact the panel first" hold (components/popup/model/open-entries.ts,
 * `contactFirst`, fed the list's settled lines by App.tsx as `settledListed`); the card's case is in
 * a11y.test.ts. Deliberate breakages it failed on: App.tsx passing no `settledListed` to popupState
 * (the Redeem was let go as the line settled: no aria-describedby, so null, not the contact text);
 * the goal card ignoring the hold (goal-model.ts's status and Redeem without `input.blocked`: its
 * Redeem was offered).
 *
 * The panel says yes and records nothing, and another redeem takes the card, as a panelist would
 * meet it. Settling it as not found takes the background's last check, 30 minutes after the request
 * (utils/check-schedule.ts), and the worker's clock cannot be moved: so the test moves the Confirm's
 * own times (sent, answered, its checks) back 31 minutes in `ledger:unsettled`, as if it had been
 * sent then, and runs the check alarm for now (as tests/e2e/README.md says a scheduled check is
 * run). The background's own checks then run its four checks, one alarm after another, and settle
 * it; nothing else is written for it. The check alarm is cleared first, so no check of its own
 * writes between that read and that write (a refresh's history read, which can only find, writes it
 * only if it shows the redemption, which it never will).
 */
test('a listed redemption the panel said yes to that settles as not found keeps its Redeem held, saying to contact the panel', async () => {
  // Whatever the first test spent, the panelist has points for both redeems below.
  const popup = await saidYesThenListed(PAYWAVE);
  // PayWave is listed, saying what the panel answered, its Redeem held.
  const list = popup.getByRole('region', { name: THE_LIST });
  const line = lineOf(list, PAYWAVE);
  await line.getByText('The panel said it went through; your history does not show it yet.').waitFor();
  const redeem = popup.getByRole('button', { name: `Redeem ${PAYWAVE}`, exact: true });
  expect(await redeem.isDisabled()).toBe(true);
  expect(await describedBy(popup, redeem)).toBe(HELD_CHECKING);

  // 31 minutes on for this Confirm, then its check alarm now (see above).
  await settleAsIfLate(PAYWAVE);

  // The line says what it became, in its own words, while the popup stays open.
  await line
    .getByText(
      `${PAYWAVE} was not found in your history. The panel answered that it went through, but it has not ` +
        'appeared in your history in 30 minutes. Contact Panel Rewards before redeeming it again.',
    )
    .waitFor({ timeout: 30_000 });
  expect(await line.getByRole('button', { name: /^Check now/ }).count()).toBe(0);
  // Its reward's Redeem stays held, now saying to contact the panel first.
  await expect.poll(() => describedBy(popup, redeem)).toBe(HELD_CONTACT);
  expect(await redeem.isDisabled()).toBe(true);
  expect(await axeViolations(popup)).toEqual([]);

  // Set as the goal, which the balance covers, its card holds Redeem back in the same words where
  // "You can redeem it now" would stand, never offering what the row holds back.
  await popup.getByRole('button', { name: `Set as goal: ${PAYWAVE}`, exact: true }).click();
  const card = popup.getByRole('region', { name: 'Your goal', exact: true });
  const cardRedeem = card.getByRole('button', { name: `Redeem ${PAYWAVE}`, exact: true });
  await cardRedeem.waitFor();
  expect(await cardRedeem.isDisabled()).toBe(true);
  expect(await describedBy(popup, cardRedeem)).toBe(HELD_CONTACT);
  expect(await card.getByText('You can redeem it now').count()).toBe(0);
  expect(await axeViolations(popup)).toEqual([]);
  // The next test starts without a goal.
  await card.getByRole('button', { name: `Remove goal: ${PAYWAVE}`, exact: true }).click();
  await card.waitFor({ state: 'detached' });
  await popup.close();
}, 90_000);

/**
 * The same, with the popup closed when the checks settle it: the next opening lists it with what
 * it became and holds its Redeem, once; the opening after that leaves the panelist to decide.
 * Deliberate breakage it failed on: App listing nothing that settled unseen (`useTold` giving none):
 * the reopened popup had no line, and its Redeem was offered.
 */
test('a redemption that settles while the popup is closed is told at the next opening, once, its Redeem held there', async () => {
  let popup = await saidYesThenListed(LINDNER);
  await lineOf(popup.getByRole('region', { name: THE_LIST }), LINDNER).waitFor();
  await popup.close();

  // The checks settle it while no popup is open.
  await settleAsIfLate(LINDNER);
  const worker = await ext.worker();
  await expect
    .poll(() =>
      worker.evaluate(async (name) => {
        const { 'ledger:settled': settled = [] } = await chrome.storage.local.get<{
          'ledger:settled'?: Array<{ rewardName: string; state: string }>;
        }>('ledger:settled');
        return settled.find((entry) => entry.rewardName === name)?.state ?? null;
      }, LINDNER),
    )
    .toBe('not_found');

  // The next opening tells it, and holds its reward's Redeem as the line says.
  popup = await openPopup();
  const line = lineOf(popup.getByRole('region', { name: 'Redemptions checked' }), LINDNER);
  await line.getByText(`${LINDNER} was not found in your history.`, { exact: false }).waitFor();
  expect(await line.textContent()).toContain('Contact Panel Rewards before redeeming it again.');
  const redeem = popup.getByRole('button', { name: `Redeem ${LINDNER}`, exact: true });
  await expect.poll(() => describedBy(popup, redeem)).toBe(HELD_CONTACT);
  expect(await redeem.isDisabled()).toBe(true);
  expect(await axeViolations(popup)).toEqual([]);
  await popup.close();

  // Once told, the opening after that leaves it to the panelist.
  popup = await openPopup();
  const again = popup.getByRole('button', { name: `Redeem ${LINDNER}`, exact: true });
  await expect.poll(() => again.isDisabled()).toBe(false);
  expect(await popup.getByRole('region', { name: THE_LIST }).count()).toBe(0);
  await popup.close();
}, 90_000);
