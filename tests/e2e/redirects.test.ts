/**
 * Redirects in Chromium: no redirect is followed, so nothing (a
 * read, a write, a redeem) is ever sent on to where a panel points. In the browser a manual redirect is an opaque response (no
 * status, no Location), unlike Node's fetch, so the API tests alone do not prove this.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { injectFault, requestCount, serverState, stored } from './control';
import { launchExtension, type ExtensionSession } from './harness';

const COFFEE = 'Bluefin Coffee $5 Gift Card';
const REDEEM = '/v1/panel/redemption';
const VALUES = '/v1/panel/variables/data';
const REWARDS = '/v1/panel/rewards';

let ext: ExtensionSession;
/** Where a misconfigured or hijacked panel points: another server on 127.0.0.1. */
let elsewhere: Sandbox;
const redirect = (method: string, path: string, status: number) =>
  injectFault(ext, { method, path, status, headers: { Location: `${elsewhere.url}${path}` } });

beforeAll(async () => {
  elsewhere = await startSandbox({ port: 0 });
  ext = await launchExtension({ connect: true });
});
afterAll(async () => {
  await ext?.close();
  await elsewhere?.close();
});

test('a profile save answered 307 is refused, naming the panel, and its body never reaches the other server', async () => {
  const options = await ext.openPage('options.html');
  const firstName = options.getByLabel('What is your first name?');
  await firstName.fill('Robin');
  await redirect('POST', VALUES, 307);
  await options.getByRole('button', { name: 'Save changes' }).click();
  // The options page names the panel by its name, in plain words; the client's own text
  // (host, redirect) is for the other pages and support.
  const alert = options
    .getByRole('alert')
    .filter({ hasText: 'Panel Rewards sent an answer this extension could not read' });
  await alert.waitFor();
  expect(await firstName.inputValue()).toBe('Robin');
  expect(await requestCount(ext, VALUES)).toBeGreaterThanOrEqual(1);
  expect((await serverState(ext)).values.FIRST_NAME).toBe('Jordan');
  expect(elsewhere.requests).toEqual([]);
  await options.close();
});

test('a redeem answered 308 is sent once, never re-sent elsewhere, and not taken as a refusal', async () => {
  const popup = await ext.openPage('popup.html');
  await popup.getByText('2,500').first().waitFor();
  await redirect('GET', REDEEM, 308);
  await popup.getByRole('button', { name: `Redeem ${COFFEE}` }).click();
  await popup.getByRole('button', { name: `Confirm redeeming ${COFFEE}` }).click();
  // Ambiguous, not refused: the request reached the panel, so its outcome is unknown until the
  // history shows it (the history is also read before the redeem leaves, so its reads prove nothing).
  const ledger = () => stored<{ state?: string; error?: { kind: string } }>(ext, 'ledger');
  await expect.poll(async () => (await ledger())?.state).toBe('unknown');
  expect(['rejected', 'not_allowed']).not.toContain((await ledger())?.error?.kind);
  expect(await requestCount(ext, REDEEM)).toBe(1);
  expect(elsewhere.requests).toEqual([]);
  expect((await serverState(ext)).balance).toBe(2500);
  await popup.close();
});

test('a refresh pointed to another site is refused before anything is sent there: said in plain words, the endpoint for support', async () => {
  const popup = await ext.openPage('popup.html');
  await popup.getByText('2,500').first().waitFor();
  await redirect('GET', REWARDS, 302);
  const before = await requestCount(ext, REWARDS);
  await popup.getByRole('button', { name: 'Refresh: your points and rewards', exact: true }).click();
  // The popup's one line in plain words; the redirect, what to check and what was
  // asked for are behind "Details for support" (the browser hides where the redirect pointed, an
  // opaque answer, which is why no redirect is followed at all).
  const alert = popup.getByRole('alert').filter({ hasText: 'Couldn’t get an update from Panel Rewards' });
  await alert.waitFor();
  expect(await alert.textContent()).not.toContain('HTTP');
  const support = popup.locator('header details.support');
  await support.locator('summary').click();
  const details = await support.locator('.support-text').textContent();
  expect(details).toContain(
    `The panel at ${new URL(ext.sandbox.url).host} answered with a redirect, which the extension does not follow`,
  );
  expect(details).toContain(REWARDS);
  expect(elsewhere.requests).toEqual([]);
  // Refused, not retried.
  expect(await requestCount(ext, REWARDS)).toBe(before + 1);
  // The cached balance stays on screen beside the error.
  expect(await popup.getByText('2,500').first().isVisible()).toBe(true);
  await popup.close();
});
