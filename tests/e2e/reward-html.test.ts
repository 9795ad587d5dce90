/**
 * In Chromium, reward HTML stays in its box and sends nothing anywhere. A second server
 * on 127.0.0.1 stands for a third party (a tracker, another brand's CDN) and counts every request
 * that reaches it.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { axeViolations } from './axe';
import { E2E_SANDBOX_PORT } from './config';
import { launchExtension, type ExtensionSession } from './harness';
import { probe, startThirdParty, watch, type Seen, type ThirdParty } from './third-party';

const COFFEE = 'Bluefin Coffee $5 Gift Card';
const PANEL_IMAGE = '/__probe/panel-image.png';

/** A look-alike "Sign in again" dialog, in the popup's own class names, and more. */
const LOOK_ALIKE =
  '<div class="overlay" id="app" style="position:fixed;inset:0;z-index:2147483647;background:#fff">' +
  '<div class="dialog" role="alertdialog" aria-label="Sign in again"><h1 class="hdr-name" style="font-size:64px">Sign in again</h1>' +
  '<p>Your session has expired.</p><a class="btn-primary" href="https://evil.example/login">Sign in</a></div></div>' +
  '<dialog open>An open dialog</dialog><div popover="manual">A popover</div><marquee>News</marquee>' +
  `<p>${'A long description line. '.repeat(400)}</p>`;

let party: ThirdParty;
/** The third party's address. */
let third: string;
let sandbox: Sandbox;
let ext: ExtensionSession;

/** Everything that loads by being there, pointed at the third party, and one image at the panel's own origin. */
function tracking(panel: string): string {
  return [
    `<p>Good <b>coffee</b>. <img src="${panel}${PANEL_IMAGE}" alt="Panel image"></p>`,
    `<img src="${third}/img?panelist=42" alt="pixel"><img src="x" srcset="${third}/srcset 2x">`,
    `<picture><source srcset="${third}/picture-source"><img src="${third}/picture-img" alt="pic"></picture>`,
    `<video poster="${third}/poster" src="${third}/video" autoplay><source src="${third}/video-source"><track src="${third}/track"></video>`,
    `<audio src="${third}/audio" autoplay></audio><table background="${third}/table"><tr><td background="${third}/td">cell</td></tr></table>`,
    `<input type="image" src="${third}/input"><link rel="stylesheet" href="${third}/css"><link rel="prefetch" href="${third}/prefetch">`,
    `<object data="${third}/object"></object><embed src="${third}/embed"><iframe src="${third}/iframe"></iframe>`,
    `<div style="background:url(${third}/style)">styled</div><style>@import url(${third}/import);</style>`,
    `<svg><image href="${third}/svg"></image></svg><meta http-equiv="refresh" content="0;url=${third}/refresh">`,
    `<base href="${third}/base/"><img src="relative.png" alt="relative"><body background="${third}/body">`,
  ].join('');
}

beforeAll(async () => {
  party = await startThirdParty();
  third = party.url;

  sandbox = await startSandbox({ port: E2E_SANDBOX_PORT });
  const [coffee, ...others] = sandbox.state.rewards;
  const html = tracking(sandbox.url);
  const meta = {
    ...coffee!.meta_data,
    description: LOOK_ALIKE + html,
    redemption_instructions: html,
    terms: html,
    disclaimer: html,
  };
  sandbox.state.rewards = [{ ...coffee!, meta_data: meta }, ...others];
  ext = await launchExtension({ sandbox, connect: true });
});
afterAll(async () => {
  await ext?.close();
  await sandbox?.close();
  await party?.close();
});

async function openDetails(): Promise<Page> {
  const popup = await ext.openPage('popup.html');
  await popup.setViewportSize({ width: 400, height: 600 });
  await popup.getByRole('button', { name: COFFEE, exact: true }).click();
  await popup.getByRole('heading', { name: 'Description' }).waitFor();
  // Open the collapsed legal texts too, so every field is on screen.
  for (const name of ['Terms', 'Disclaimer']) await popup.locator('summary', { hasText: name }).click();
  await expect.poll(() => popup.locator('.details .html').count()).toBe(4);
  return popup;
}

/** Every visible control of the page itself, checked at its centre: is it what a click there reaches? */
function hitTest(page: Page): Promise<{ checked: number; covered: string[] }> {
  return page.evaluate(() => {
    const controls = [...document.querySelectorAll<HTMLElement>('button, a[href], input, select, textarea, summary')];
    const covered: string[] = [];
    let checked = 0;
    for (const control of controls) {
      control.scrollIntoView({ block: 'center', inline: 'center' });
      const box = control.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      checked += 1;
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      if (!hit || !(hit === control || control.contains(hit))) {
        covered.push(
          `${control.tagName} "${control.textContent?.trim().slice(0, 40)}" is under ${hit?.tagName}.${String(hit?.className)}`,
        );
      }
    }
    return { checked, covered };
  });
}

test('reward HTML in the popup’s own class names cannot cover a control, and its headings are no larger than the extension’s', async () => {
  const popup = await openDetails();
  const seen = await hitTest(popup);
  expect(seen.checked).toBeGreaterThan(10);
  expect(seen.covered).toEqual([]);
  // No dialog of the catalogue's reaches the accessibility tree as one.
  expect(await popup.getByRole('alertdialog').count()).toBe(0);

  const inside = await popup
    .locator('.details .html')
    .first()
    .evaluate((host) => {
      const all = [...host.shadowRoot!.querySelectorAll('*')].filter((el) => el.tagName !== 'STYLE');
      return {
        attributes: all.flatMap((el) =>
          ['class', 'id', 'style', 'role', 'popover']
            .filter((a) => el.hasAttribute(a) && !el.matches('span.held'))
            .map((a) => `${el.tagName}[${a}]`),
        ),
        positioned: all.filter((el) => getComputedStyle(el).position !== 'static').map((el) => el.tagName),
        tags: [...new Set(all.map((el) => el.tagName.toLowerCase()))],
        scrolls: host.scrollHeight > host.clientHeight,
        focusable: host.getAttribute('tabindex'),
        name: host.getAttribute('aria-label'),
        height: host.getBoundingClientRect().height,
      };
    });
  expect(inside.attributes).toEqual([]);
  expect(inside.positioned).toEqual([]);
  expect(inside.tags).not.toEqual(expect.arrayContaining(['dialog']));
  expect(inside.tags).not.toContain('marquee');
  // A long description is bounded and scrolls inside its box, reachable by keyboard.
  expect(inside).toMatchObject({ scrolls: true, focusable: '0', name: 'Description' });
  expect(inside.height).toBeLessThan(260);

  const sizes = await popup.evaluate(() => {
    const px = (el: Element) => parseFloat(getComputedStyle(el).fontSize);
    const theirs = [...document.querySelectorAll('.html')].flatMap((h) => [
      ...h.shadowRoot!.querySelectorAll('h1, h2, h3, h4, h5, h6'),
    ]);
    return { theirs: theirs.map(px), own: px(document.querySelector('.details h4')!) };
  });
  expect(sizes.theirs.length).toBeGreaterThan(0);
  for (const size of sizes.theirs) expect(size).toBeLessThanOrEqual(sizes.own);

  expect(await axeViolations(popup)).toEqual([]);

  // The check can fail: the same markup put in the page itself covers the controls.
  await popup.evaluate((html) => document.body.insertAdjacentHTML('beforeend', html), LOOK_ALIKE);
  expect((await hitTest(popup)).covered.length).toBeGreaterThan(5);
  await popup.close();
});

test('opening details sends nothing to a host other than the panel; the panel’s images load only when asked for', async () => {
  party.hits.length = 0;
  const panelImage = () => sandbox.requests.filter((r) => r.path === PANEL_IMAGE).length;
  const popup = await openDetails();
  await popup.waitForTimeout(1000); // time for anything that slipped through to load
  expect(party.hits).toEqual([]);
  expect(panelImage()).toBe(0);

  const show = popup.getByRole('button', { name: `Show images from 127.0.0.1:${E2E_SANDBOX_PORT}` });
  expect(await show.count()).toBe(1);
  expect(await popup.getByRole('button', { name: /^Show images from/ }).count()).toBe(1);
  await show.click();
  await expect.poll(panelImage).toBeGreaterThan(0);
  await popup.getByRole('button', { name: `Images from 127.0.0.1:${E2E_SANDBOX_PORT} shown` }).waitFor();
  // The panel answers 401 to an image request: the image is broken, and shows its alt text, not the broken-image icon.
  await expect
    .poll(() =>
      popup
        .locator('.details .html')
        .first()
        .evaluate((h) => h.shadowRoot!.querySelectorAll('img').length),
    )
    .toBe(0);
  expect(
    await popup
      .locator('.details .html')
      .first()
      .evaluate((h) => h.shadowRoot!.textContent),
  ).toContain('Panel image');
  await popup.waitForTimeout(500);
  expect(party.hits).toEqual([]);
  expect(await axeViolations(popup)).toEqual([]);
  await popup.close();
});

test('the content security policy: the manifest allows no media, the popup then allows images only from the panel and the catalogue', async () => {
  const add = (page: Page, html: string, expected: Seen) =>
    probe(party, html, expected, (m) => page.evaluate(watch, m));
  const options = await ext.openPage('options.html');
  // The manifest's policy: images from where a panel may be (the third party counts, on 127.0.0.1), no media at all.
  const manifestAllows = { violations: ['media-src /static-video'], hits: ['/static-img'] };
  expect(
    await add(options, `<img src="${third}/static-img"><video src="${third}/static-video"></video>`, manifestAllows),
  ).toEqual(manifestAllows);
  const manifest = await options.evaluate(() => chrome.runtime.getManifest().content_security_policy);
  expect(manifest).toEqual({
    extension_pages:
      "script-src 'self'; object-src 'none'; base-uri 'none'; frame-src 'none'; img-src 'self' data: https: http://localhost:* http://127.0.0.1:*; media-src 'none'",
  });
  await options.close();

  // The popup's own policy, set before the details showed any reward HTML: the same image is refused.
  const popup = await openDetails();
  const policy = await popup.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(policy).toBe(`img-src 'self' data: ${sandbox.url} https://images.sandbox.invalid; media-src 'none'`);
  const popupRefuses = { violations: ['img-src /after-details'], hits: [] };
  expect(await add(popup, `<img src="${third}/after-details">`, popupRefuses)).toEqual(popupRefuses);
  await popup.close();
});
