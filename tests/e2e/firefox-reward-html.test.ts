/**
 * Reward HTML where Firefox could differ from Chromium: the manifest's content security policy (a
 * plain string in MV2) and the one the popup adds at run time are both enforced, reward HTML
 * loads nothing from a third party, and an origin granted on Connect is given back on Disconnect.
 * A second server on 127.0.0.1 stands for the third party and counts what reaches it.
 */
import type { Page } from 'puppeteer-core';
import type Browser from 'webextension-polyfill';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { E2E_SANDBOX_PORT } from './config';
import { byLabel, fillField, launchFirefox, waitForTexts, type FirefoxSession } from './firefox-harness';
import { probe, startThirdParty, watch, type Seen, type ThirdParty } from './third-party';

const COFFEE = 'Bluefin Coffee $5 Gift Card';
const PANEL_IMAGE = '/__probe/panel-image.png';

let party: ThirdParty;
/** The third party's address. */
let third: string;
let sandbox: Sandbox;
let ff: FirefoxSession;

type InPage = { browser: Browser.Browser };

beforeAll(async () => {
  party = await startThirdParty();
  third = party.url;
  sandbox = await startSandbox({ port: E2E_SANDBOX_PORT });
  const [coffee, ...others] = sandbox.state.rewards;
  const description =
    `<p>Good coffee. <img src="${sandbox.url}${PANEL_IMAGE}" alt="Panel image"> <img src="${third}/img" alt="pixel"></p>` +
    `<picture><source srcset="${third}/source"><img src="${third}/picture"></picture><video poster="${third}/poster" src="${third}/video"></video>` +
    `<table background="${third}/table"><tr><td>cell</td></tr></table>`;
  sandbox.state.rewards = [{ ...coffee!, meta_data: { ...coffee!.meta_data, description } }, ...others];
  ff = await launchFirefox();
});
afterAll(async () => {
  await ff?.close();
  await sandbox?.close();
  await party?.close();
});

async function connect(url: string): Promise<void> {
  const options = await ff.openPage('options.html');
  await options.waitForSelector('details.advanced > summary');
  if (!(await options.$eval('details.advanced', (d) => d.open))) await options.click('details.advanced > summary');
  await fillField(options, 'Panel address', url);
  await fillField(options, 'Personal key', sandbox.token);
  await options.locator(byLabel('Connect', 'button')).click();
  await options.locator(byLabel('Disconnect', 'button')).wait();
  await options.close();
}

const grantedOrigins = (page: Page) =>
  page.evaluate(async () => (await (globalThis as unknown as InPage).browser.permissions.getAll()).origins ?? []);

const add = (page: Page, html: string, expected: Seen) => probe(party, html, expected, (m) => page.evaluate(watch, m));

test('an origin allowed on Connect is given back on Disconnect; the build’s own stays', async () => {
  await connect(sandbox.url.replace('127.0.0.1', 'localhost'));
  const options = await ff.openPage('options.html');
  expect((await grantedOrigins(options)).toSorted()).toEqual(['http://127.0.0.1/*', 'http://localhost/*']);
  await options.locator(byLabel('Disconnect', 'button')).click();
  await options.locator(byLabel('Yes, disconnect', 'button')).click();
  await waitForTexts(options, ['Disconnected.']);
  await expect.poll(() => grantedOrigins(options)).toEqual(['http://127.0.0.1/*']);
  await options.close();
});

test('the manifest’s policy refuses media; the popup’s, added before reward HTML, refuses images from anywhere but the panel and the catalogue', async () => {
  await connect(sandbox.url);
  const options = await ff.openPage('options.html');
  const manifestAllows = { violations: ['media-src /static-video'], hits: ['/static-img'] };
  expect(
    await add(options, `<img src="${third}/static-img"><video src="${third}/static-video"></video>`, manifestAllows),
  ).toEqual(manifestAllows);
  await options.close();

  party.hits.length = 0;
  const popup = await ff.openPage('popup.html');
  await popup.locator(byLabel(COFFEE, 'button')).click();
  const show = byLabel(`Show images from 127.0.0.1:${E2E_SANDBOX_PORT}`, 'button');
  await popup.waitForSelector(show);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect(party.hits).toEqual([]);
  expect(sandbox.requests.filter((r) => r.path === PANEL_IMAGE)).toHaveLength(0);
  expect(await popup.$eval('meta[http-equiv="Content-Security-Policy"]', (m) => m.content)).toBe(
    `img-src 'self' data: ${sandbox.url} https://images.sandbox.invalid; media-src 'none'`,
  );

  await popup.locator(show).click();
  await expect.poll(() => sandbox.requests.filter((r) => r.path === PANEL_IMAGE).length).toBeGreaterThan(0);
  const popupRefuses = { violations: ['img-src /after-details'], hits: [] };
  expect(await add(popup, `<img src="${third}/after-details">`, popupRefuses)).toEqual(popupRefuses);
  expect(party.hits).toEqual([]);
  await popup.close();
});
