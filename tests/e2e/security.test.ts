/**
 * In Chromium, hostile HTML from the server never runs, links leave
 * safely, the token shows up in no console line, and web pages cannot reach the extension.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { E2E_SANDBOX_PORT } from './config';
import { launchExtension, type ExtensionSession } from './harness';

const COFFEE = 'Bluefin Coffee $5 Gift Card';

/** Each field gets every trick; a trick that ran would set window.__pwned or open a dialog. */
const HOSTILE = [
  '<img src="x" usemap="#m" alt="map"><map name="m"><area shape="rect" coords="0,0,9,9" href="https://brand.example/area" target="_top" alt="area link"></map>',
  '<p>Fine <b>print</b>.</p><script>window.__pwned = "script"; alert(1)</script>',
  '<img src="x" onerror="window.__pwned = \'onerror\'; alert(2)">',
  '<a href="javascript:window.__pwned = \'href\'">javascript link</a>',
  '<svg onload="window.__pwned = \'svg\'"><script>window.__pwned = "svg-script"</script><a href="javascript:alert(3)"><text>svg link</text></a></svg>',
  '<iframe srcdoc="<script>parent.__pwned = \'iframe\'</script>"></iframe><iframe src="https://evil.example/"></iframe>',
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__pwned = \'mxss\'">',
  '<a href="https://brand.example/terms" target="_self">brand terms</a>',
].join('');

let sandbox: Sandbox;
let ext: ExtensionSession;
const consoleLines: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: E2E_SANDBOX_PORT });
  const [coffee, ...others] = sandbox.state.rewards;
  const meta = {
    ...coffee!.meta_data,
    description: HOSTILE,
    terms: HOSTILE,
    disclaimer: HOSTILE,
    redemption_instructions: HOSTILE,
  };
  sandbox.state.rewards = [{ ...coffee!, meta_data: meta }, ...others];
  ext = await launchExtension({ sandbox });
  ext.context.on('page', (page) => page.on('console', (m) => consoleLines.push(m.text())));
  ext.context.on('serviceworker', (w) => w.on('console', (m) => consoleLines.push(m.text())));
  (await ext.worker()).on('console', (m) => consoleLines.push(m.text()));
  await ext.connect();
});
afterAll(async () => {
  await ext?.close();
  await sandbox?.close();
});

test('server HTML is shown sanitized in every field, and none of it runs', async () => {
  const popup = await ext.openPage('popup.html');
  const dialogs: string[] = [];
  popup.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await popup.getByRole('button', { name: COFFEE, exact: true }).click();
  const parts = popup.locator('.details .html');
  await expect.poll(() => parts.count()).toBe(4);

  // Each field sits in a shadow root of its own, after that root's own styles.
  for (const html of await parts.evaluateAll((nodes) =>
    nodes.map((n) => n.shadowRoot?.lastElementChild?.innerHTML ?? ''),
  )) {
    expect(html).toContain('<b>print</b>');
    expect(html).not.toMatch(/<script|<iframe|<svg|<math|<style|onerror|onload|javascript:|srcdoc/i);
  }
  const links = popup.locator('.details .html a[href], .details .html area[href]');
  expect(await popup.locator('.details .html area[href]').count()).toBe(4);
  for (const link of await links.all()) {
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await link.getAttribute('href')).toMatch(/^https:/);
  }
  await popup.waitForTimeout(300); // let any onerror/onload that slipped through fire
  expect(await popup.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
  expect(dialogs).toEqual([]);
});

test('after connecting, redeeming and failing, no console line carries the token', async () => {
  const popup = await ext.openPage('popup.html');
  await popup.getByRole('button', { name: `Redeem ${COFFEE}` }).click();
  await popup.getByRole('button', { name: `Confirm redeeming ${COFFEE}` }).click();
  await popup.getByText(`Redeemed ${COFFEE}`).waitFor();
  await fetch(`${sandbox.url}/__sandbox/faults`, {
    method: 'POST',
    body: JSON.stringify({
      status: 401,
      body: JSON.stringify({ message: `Bearer ${sandbox.token} expired` }),
      times: 10,
    }),
  });
  await popup.getByRole('button', { name: 'Refresh: your points and rewards', exact: true }).click();
  // A rejected token: the popup asks to reconnect.
  await popup.getByRole('button', { name: 'Reconnect', exact: true }).waitFor();
  // The capture itself works: a line logged in the worker arrives here.
  await (await ext.worker()).evaluate(() => console.log('console-capture-probe'));
  await expect.poll(() => consoleLines.includes('console-capture-probe')).toBe(true);
  expect(consoleLines.join('\n')).not.toContain(sandbox.token);
  expect(await popup.locator('body').innerText()).not.toContain(sandbox.token);
});

test('a web page has no way to message the extension', async () => {
  const page = await ext.context.newPage();
  await page.goto(`${sandbox.url}/__sandbox/state`);
  const reachable = await page.evaluate(
    () => typeof (globalThis as { chrome?: { runtime?: { sendMessage?: unknown } } }).chrome?.runtime?.sendMessage,
  );
  expect(reachable).toBe('undefined');
});
