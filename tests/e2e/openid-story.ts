/**
 * A panelist's whole sign-in story against the OpenID provider at its defaults
 * (../sandbox/openid-provider.ts), driven by visible labels in whichever browser a driver speaks
 * to, and checked against the provider's own records: sign in, a renewal that rotates the refresh
 * token, a redeem with the renewed token, Disconnect revoking the grant at the provider, the next
 * sign-in asking for the password again, a denial, and a grant the provider revokes meanwhile.
 * Every request to the token and revocation endpoints arrives without an `Origin` header: with one,
 * the provider would refuse it (its default `clientBasedCORS`).
 *
 * Deliberate breakage it failed on: the Origin rule not written (without-origin.ts) — the first
 * code exchange is refused and the panelist is never signed in.
 */
import { expect } from 'vitest';
import { SANDBOX_EMAIL, SANDBOX_PASSWORD } from '../sandbox/oauth';
import type { OpenIdProvider } from '../sandbox/openid-provider';
import type { Sandbox } from '../sandbox/server';

export const COFFEE = 'Bluefin Coffee $5 Gift Card'; // 500 points; the seed balance is 2,500

/** What differs between Chromium (Playwright) and Firefox (Puppeteer): how a page is found and driven. */
export interface Driver<P> {
  options(): Promise<P>;
  popup(): Promise<P>;
  /** Presses the button named `name` on `page` (and returns at once). */
  press(page: P, name: string): Promise<void>;
  fill(page: P, label: string, value: string): Promise<void>;
  /** Resolves once `page` shows `text`. */
  waitForText(page: P, text: string): Promise<void>;
  /** Resolves once `page` has a control named `name`. */
  waitFor(page: P, name: string): Promise<void>;
  /** Presses "Sign in to Panel Rewards" on `page`; resolves with the window or tab the browser opened at the provider. */
  openSignIn(page: P): Promise<P>;
  /** A storage.local value as the extension stores it. */
  stored<T>(key: string): Promise<T | undefined>;
  close(page: P): Promise<void>;
}

interface Credentials {
  token: string;
  refreshToken?: string;
}

const NO_ORIGIN = { origin: null };
/** The header's Refresh, by its accessible name. */
const REFRESH = 'Refresh: your points and rewards';

/**
 * The authorization requests from the `from`-th on asked `asked`. Firefox's sign-in window loads
 * the address twice, so one sign-in may show as two identical requests.
 */
function expectAsked(op: OpenIdProvider, from: number, asked: OpenIdProvider['authorizations'][number]): void {
  const requests = op.authorizations.slice(from);
  expect(requests.length).toBeGreaterThan(0);
  for (const request of requests) expect(request).toEqual(asked);
}

/** Whether the history and the profile a new session reads at once have been read. */
async function warmed<P>(driver: Driver<P>): Promise<boolean> {
  const sync = await driver.stored<Record<'history' | 'profile', { loading: boolean; attemptedAt: number }>>('sync');
  return !!sync && [sync.history, sync.profile].every((area) => area.attemptedAt > 0 && !area.loading);
}

async function signInThrough<P>(driver: Driver<P>, page: P, decision: 'Allow' | 'Deny'): Promise<void> {
  await driver.fill(page, 'E-mail', SANDBOX_EMAIL);
  await driver.fill(page, 'Password', SANDBOX_PASSWORD);
  await driver.press(page, 'Sign in');
  await driver.waitFor(page, decision);
  await driver.press(page, decision);
}

async function disconnect<P>(driver: Driver<P>, options: P): Promise<void> {
  await driver.press(options, 'Disconnect');
  await driver.press(options, 'Yes, disconnect');
  await driver.waitForText(options, 'The next sign-in asks for the password again.');
}

/** The story; `redirectUri` is the one the browser's door comes back to. */
export async function signInStory<P>(
  driver: Driver<P>,
  op: OpenIdProvider,
  sandbox: Sandbox,
  redirectUri: string,
): Promise<void> {
  // Signs in: the provider asks for the password, then for consent to offline access.
  const options = await driver.options();
  await signInThrough(driver, await driver.openSignIn(options), 'Allow');
  await driver.waitFor(options, 'Disconnect');
  expectAsked(op, 0, { scope: 'openid offline_access', prompt: 'consent', maxAge: null });
  expect(op.answered).toEqual(['login', 'consent']);
  expect(op.exchanges).toEqual([
    { grantType: 'authorization_code', redirectUri, verifier: true, ...NO_ORIGIN, error: null },
  ]);
  const first = (await driver.stored<Credentials>('credentials'))!;
  expect(await op.refreshToken(first.refreshToken!)).toBe('live');

  // The provider ends the access token: the next read is refused, renewed once, and the refresh
  // token rotated (the provider's record of the old one says used).
  expect(await op.endAccessTokens()).toBe(1);
  const popup = await driver.popup();
  await driver.waitForText(popup, '2,500 points');
  await driver.press(popup, REFRESH);
  await expect.poll(() => op.exchanges.length).toBe(2);
  expect(op.exchanges[1]).toEqual({
    grantType: 'refresh_token',
    redirectUri: null,
    verifier: false,
    ...NO_ORIGIN,
    error: null,
  });
  await expect.poll(async () => (await driver.stored<Credentials>('credentials'))?.token).not.toBe(first.token);
  const second = (await driver.stored<Credentials>('credentials'))!;
  expect(second.refreshToken).not.toBe(first.refreshToken);
  expect(await op.refreshToken(first.refreshToken!)).toBe('used');

  // A redeem with the renewed access token: the panel made exactly one.
  await driver.press(popup, `Redeem ${COFFEE}`);
  await driver.press(popup, `Confirm redeeming ${COFFEE}`);
  await driver.waitForText(popup, `Redeemed ${COFFEE}`);
  expect(sandbox.made).toHaveLength(1);
  expect(sandbox.state.balance).toBe(2000);
  await driver.close(popup);

  // Disconnect revokes the grant at the provider, and says the next sign-in asks for the password.
  await disconnect(driver, options);
  await expect.poll(() => op.revocations).toEqual([NO_ORIGIN]);
  await expect.poll(() => op.refreshToken(second.refreshToken!)).toBe('gone');
  const asked = op.authorizations.length;

  // The next sign-in asks for the password again, though the provider still remembers the login:
  // it lists no prompt values, so it is sent one, consent, and max_age=0 asks for the password.
  await signInThrough(driver, await driver.openSignIn(options), 'Allow');
  await driver.waitFor(options, 'Disconnect');
  expectAsked(op, asked, { scope: 'openid offline_access', prompt: 'consent', maxAge: '0' });
  expect(op.answered.slice(2)).toEqual(['login', 'consent']);

  // A denial, after Disconnect again: nothing stored, and told without saying the panelist chose it.
  await disconnect(driver, options);
  await signInThrough(driver, await driver.openSignIn(options), 'Deny');
  await driver.waitForText(options, 'Access was not allowed, so nothing was connected.');
  expect(await driver.stored('credentials')).toBeFalsy();

  // Signed in again, the panelist's grant is revoked at the provider: one refused renewal, then
  // "sign in again", with what was read kept.
  await signInThrough(driver, await driver.openSignIn(options), 'Allow');
  await driver.waitFor(options, 'Disconnect');
  // The reads a new session warms are done first, so the Refresh below is what meets the revocation.
  await expect.poll(() => warmed(driver)).toBe(true);
  const again = await driver.popup();
  await driver.waitForText(again, COFFEE);
  const exchanges = op.exchanges.length;
  expect(await op.revokeGrants()).toBeGreaterThan(0);
  await driver.press(again, REFRESH);
  await driver.waitForText(again, 'Your sign-in has expired');
  // What was read stays for when the panelist is back.
  expect(await driver.stored('cache:rewards')).toBeTruthy();
  expect(op.exchanges.slice(exchanges)).toEqual([
    { grantType: 'refresh_token', redirectUri: null, verifier: false, ...NO_ORIGIN, error: 'invalid_grant' },
  ]);
  expect(op.exchanges.every((e) => e.origin === null)).toBe(true);
}
