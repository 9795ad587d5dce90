/**
 * A redemption whose outcome is still being checked never drops out of sight, in Chromium, driven
 * by visible labels: redeeming another reward takes its card, and it stays listed under "Still
 * being checked", with its own Check now and its Redeem held back, until the history settles it.
 */
import type { Page } from 'playwright-core';
import { afterEach, expect, test } from 'vitest';
import { axeViolations } from './axe';
import { injectFault, serverState } from './control';
import { launchExtension, type ExtensionSession } from './harness';

const REDEEM_PATH = '/v1/panel/redemption';
const NORTHWIND = 'Northwind Books $10 Gift Card'; // 1,000 points
const COFFEE = 'Bluefin Coffee $5 Gift Card'; // 500 points; the seed balance is 2,500

const sessions: ExtensionSession[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
});

async function confirmRedeeming(popup: Page, name: string): Promise<void> {
  await popup.getByRole('button', { name: `Redeem ${name}` }).click();
  await popup.getByRole('button', { name: `Confirm redeeming ${name}` }).click();
}

test('a redemption being checked stays listed, with its Check now and its Redeem held, when another reward is redeemed, until the history settles it', async () => {
  const ext = await launchExtension();
  sessions.push(ext);
  await ext.connect();
  const popup = await ext.openPage('popup.html');
  await popup.setViewportSize({ width: 400, height: 600 });

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
  const list = popup.getByRole('region', { name: 'Still being checked' });
  await list.getByText(new RegExp(`^${NORTHWIND.replace(/\$/g, '\\$')}, redeemed at `)).waitFor();
  const held = popup.getByRole('button', { name: `Redeem ${NORTHWIND}` });
  expect(await held.isDisabled()).toBe(true);
  const why = await held.getAttribute('aria-describedby');
  expect(await popup.locator(`#${why}`).textContent()).toBe(
    'Held back: your last redemption of it is still being checked',
  );
  expect(await axeViolations(popup)).toEqual([]);

  // The panel records it after all (it committed late); Check now finds it and the line says so.
  const state = await serverState(ext);
  const northwind = state.rewards.find((r) => r.name === NORTHWIND)!;
  await fetch(`${ext.sandbox.url}${REDEEM_PATH}?id=${northwind.id}`, {
    headers: { Authorization: `Bearer ${ext.sandbox.token}` },
  });
  await list.getByRole('button', { name: `Check now whether ${NORTHWIND} went through` }).click();
  await list.getByText(`${NORTHWIND} is in your redemption history: it went through.`).waitFor({ timeout: 30_000 });
  // The header follows: the balance is read again whenever a check settles a redemption.
  await expect.poll(() => popup.locator('.hdr-balance').textContent()).toBe('1,000 points');
  await expect.poll(() => held.isDisabled()).toBe(false);
  expect(await popup.getByText(/Nothing was charged/).count()).toBe(0);
  expect(await axeViolations(popup)).toEqual([]);
}, 90_000);
