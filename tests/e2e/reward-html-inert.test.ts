/**
 * In Chromium, reward HTML is parsed and sanitized only in an inert document. A
 * live document runs (and loads) what it parses at once, even into a detached element; the page's
 * content security policy would then refuse the inline handler and say so on the console — a
 * refusal by the policy, where the sanitizer should have left nothing to refuse. So the test
 * listens for exactly that: policy violations, their console lines, requests leaving the extension.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { rewardImageOrigins } from '../../utils/reward-html';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { E2E_SANDBOX_PORT } from './config';
import { launchExtension, type ExtensionSession } from './harness';
import { startThirdParty, type ThirdParty } from './third-party';
import type { Reward } from '../../utils/types';

const COFFEE = 'Bluefin Coffee $5 Gift Card';
const BOOKS = 'Northwind Books $10 Gift Card';
/** Text each field keeps after sanitizing: what the panelist must still read. */
const READABLE = 'Valid for 12 months from issue.';

/** Each trick would mark `top.__pwned` with its name if it ran; some also try to reach the third party. */
function hostile(field: string, third: string): string {
  const ran = (name: string) => `top.__pwned=(top.__pwned||[]).concat('${field}:${name}')`;
  return [
    `<p>${READABLE} <b>${field}</b></p>`,
    `<img src=x onerror="${ran('img')}">`,
    `<img src="${third}/img-${field}" onerror="${ran('img-third')}">`,
    `<svg><svg onload="${ran('svg')}"></svg></svg>`,
    `<details open ontoggle="${ran('details')}"><summary>more</summary>kept</details>`,
    `<body onload="${ran('body')}">`,
    `<iframe srcdoc="<script>${ran('srcdoc')}</script>"></iframe>`,
    `<a href="javascript:${ran('href')}">a javascript link</a>`,
    `<math><mtext><table><mglyph><style><img src=x onerror="${ran('mxss')}">`,
    `<noscript><p title="</noscript><img src=x onerror=&quot;${ran('noscript')}&quot;>"></p></noscript>`,
  ].join('');
}

let party: ThirdParty;
let sandbox: Sandbox;
let ext: ExtensionSession;

beforeAll(async () => {
  party = await startThirdParty();
  sandbox = await startSandbox({ port: E2E_SANDBOX_PORT });
  const html = (field: string) => hostile(field, party.url);
  sandbox.state.rewards = sandbox.state.rewards.map((reward) => {
    const meta = reward.meta_data;
    if (reward.name === COFFEE) {
      const fields = ['description', 'short_description', 'redemption_instructions', 'terms', 'disclaimer'] as const;
      return { ...reward, meta_data: { ...meta, ...Object.fromEntries(fields.map((f) => [f, html(f)])) } };
    }
    // Shown only when a reward has no description.
    if (reward.name === BOOKS)
      return { ...reward, meta_data: { ...meta, description: '', short_description: html('short_description') } };
    return reward;
  });
  ext = await launchExtension({ sandbox, connect: true });
});
afterAll(async () => {
  await ext?.close();
  await sandbox?.close();
  await party?.close();
});

interface Watch {
  consoleLines: string[];
  requests: string[];
  violations(): Promise<string[]>;
  pwned(): Promise<unknown>;
}

/** A popup with every listener in place before its first script runs. */
async function watchedPopup(): Promise<{ popup: Page; watch: Watch }> {
  const popup = await ext.context.newPage();
  await popup.addInitScript(() => {
    const seen: string[] = ((window as unknown as { __violations: string[] }).__violations = []);
    // Capture, so a listener of the page's own cannot stop it; composed, so it leaves shadow roots.
    window.addEventListener(
      'securitypolicyviolation',
      (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`),
      true,
    );
  });
  const consoleLines: string[] = [];
  popup.on('console', (m) => {
    if (/content security policy|violates|refused to/i.test(m.text())) consoleLines.push(m.text());
  });
  const requests: string[] = [];
  const own = `chrome-extension://${ext.extensionId}/`;
  // The list's own reward images come from the catalogue's image hosts; nothing else leaves.
  const allowed = new Set([sandbox.url, ...rewardImageOrigins(sandbox.state.rewards as unknown as Reward[])]);
  popup.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(own) && !url.startsWith('data:') && !allowed.has(new URL(url).origin)) requests.push(url);
  });
  await popup.goto(`${own}popup.html`);
  const watch: Watch = {
    consoleLines,
    requests,
    violations: () => popup.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
    pwned: () => popup.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned),
  };
  return { popup, watch };
}

/** Inline handlers and script URLs anywhere in the page, its reward boxes' shadow roots included. */
function scriptAttributes(popup: Page): Promise<string[]> {
  return popup.evaluate(() => {
    const roots: ParentNode[] = [
      document,
      ...[...document.querySelectorAll('*')].flatMap((el) => (el.shadowRoot ? [el.shadowRoot] : [])),
    ];
    return roots.flatMap((root) =>
      [...root.querySelectorAll('*')].flatMap((el) =>
        [...el.attributes]
          .filter((a) => /^on/i.test(a.name) || /^\s*(javascript|vbscript):/i.test(a.value))
          .map((a) => `${el.tagName}[${a.name}]`),
      ),
    );
  });
}

async function expectClean(popup: Page, watch: Watch): Promise<void> {
  await popup.waitForTimeout(1000); // time for an error, load or toggle that slipped through to fire
  expect(await watch.violations()).toEqual([]);
  expect(watch.consoleLines).toEqual([]);
  expect(watch.requests).toEqual([]);
  expect(party.hits).toEqual([]);
  expect(await watch.pwned()).toBeUndefined();
  expect(await scriptAttributes(popup)).toEqual([]);
}

test('hostile markup in every HTML field: opening the details runs nothing, loads nothing, trips no policy, and the text is still there', async () => {
  const { popup, watch } = await watchedPopup();
  await popup.getByRole('button', { name: COFFEE, exact: true }).click();
  await popup.getByRole('heading', { name: 'Description' }).waitFor();
  // The legal texts come collapsed: opened as a panelist opens them, by their headings.
  for (const name of ['Terms', 'Disclaimer']) await popup.getByRole('heading', { name, exact: true }).click();
  for (const field of ['description', 'redemption_instructions', 'terms', 'disclaimer']) {
    await expect.poll(() => popup.getByText(`${READABLE} ${field}`).isVisible()).toBe(true);
  }
  expect(await popup.getByText('a javascript link').count()).toBe(4);

  await popup.getByRole('button', { name: BOOKS, exact: true }).click();
  await expect.poll(() => popup.getByText(`${READABLE} short_description`).isVisible()).toBe(true);
  await expectClean(popup, watch);

  // The watch can fail, and shows why parsing in an inert document alone is not enough: Chromium checks
  // the page's policy when a handler attribute is parsed even in DOMParser's document, where nothing
  // loads or runs.
  await popup.evaluate(() => void new DOMParser().parseFromString('<p onclick="top.__pwned=1">inert</p>', 'text/html'));
  await expect.poll(() => watch.violations()).not.toEqual([]);
  // One read: a second report arriving between two reads would set the list against a longer one.
  const violations = await watch.violations();
  expect(violations).toEqual(Array(violations.length).fill('script-src-attr inline'));
  // The console line comes over its own channel, after the violation event: awaited, not read once.
  await expect.poll(() => watch.consoleLines[0]).toContain('Executing inline event handler violates');
  expect(await watch.pwned()).toBeUndefined();
  await popup.close();
});
