/**
 * The store screenshots of `npm run store` (1280×800, each store's size): a build with the
 * operator's name, colour and icon pointed at the sandbox, connected in Chromium in each shipped
 * language, its popup and options page photographed at their own size (no scaling, so crisp) and
 * set on the brand colour beside the operator's icon, name and the language's headline.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { textOn } from '../../../utils/contrast';
import { direction } from '../../../utils/i18n';
import type { ResolvedSettings } from '../../../utils/build/operator/panel-config';
import type { Listing } from '../../../utils/build/operator/store-listing';
import { launchExtension } from '../../e2e/harness';
import { welcomeTab } from '../../e2e/welcome-tab';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { messageLookup, localeMessages } from '../node-i18n';
import { packageBin } from '../package-bin';

export const SHOT_SIZE = { width: 1280, height: 800 } as const;
/** The Chrome Web Store's small promo tile, which its listing needs. */
export const PROMO_TILE_SIZE = { width: 440, height: 280 } as const;

/** The operator's look, pointed at `sandbox`: sign-in left out, so the personal key connects. */
function buildForShots(settings: ResolvedSettings, sandbox: Sandbox, outDir: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'panel-store-'));
  try {
    const config = join(dir, 'panel.config.json');
    const { panelName, brandColor, icon, earnUrl, tokenHelpUrl, balanceVariable, geckoId } = settings;
    writeFileSync(
      config,
      JSON.stringify({
        panelName,
        brandColor,
        icon,
        earnUrl,
        tokenHelpUrl,
        balanceVariable,
        geckoId,
        apiBaseUrl: sandbox.url,
      }),
    );
    // Only this file: no setting from the environment may point the pictures elsewhere.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PANEL_')));
    const [node, wxt] = packageBin('wxt');
    execFileSync(node, [wxt, 'build'], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...env, PANEL_CONFIG: config, PANEL_OUT_DIR: outDir },
    });
    return join(outDir, 'chrome-mv3');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;

/** The brand colour a quarter of the way to black, for the background's gradient. */
function darker(hex: string): string {
  const full = hex.length === 4 ? hex.replace(/[0-9a-f]/gi, '$&$&') : hex;
  const channels = [1, 3, 5].map((i) => Math.round(parseInt(full.slice(i, i + 2), 16) * 0.75));
  return `#${channels.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

function storeImage(options: {
  brand: string;
  icon: Buffer;
  name: string;
  headline: string;
  shot: Buffer;
  locale: string;
}): string {
  const on = textOn(options.brand);
  // An Arabic listing reads from the right: its words first, the popup after them.
  const lang = options.locale.replace('_', '-');
  return `<!doctype html><html lang="${escape(lang)}" dir="${direction(lang)}"><meta charset="utf-8"><style>
html,body{margin:0;width:${SHOT_SIZE.width}px;height:${SHOT_SIZE.height}px;overflow:hidden}
body{box-sizing:border-box;display:flex;align-items:center;gap:56px;padding:0 72px;font-family:system-ui,sans-serif;
  color:${on};background:linear-gradient(135deg,${options.brand},${darker(options.brand)})}
.copy{flex:0 0 400px}.brand{display:flex;align-items:center;gap:16px;font-size:28px;font-weight:600}
.brand img{width:64px;height:64px}h1{margin:32px 0 0;font-size:44px;line-height:1.15}
.shot{flex:1;display:flex;justify-content:center}.shot img{display:block;border-radius:12px;box-shadow:0 24px 60px rgba(0,0,0,.35)}
</style><div class="copy"><div class="brand"><img src="${dataUrl(options.icon)}" alt="">${escape(options.name)}</div>
<h1>${escape(options.headline)}</h1></div><div class="shot"><img src="${dataUrl(options.shot)}" alt=""></div></html>`;
}

/** The promo tile: the icon and the name on the brand colour, nothing else (the store's guidance: little text). */
function promoTile(options: { brand: string; icon: Buffer; name: string }): string {
  const { width, height } = PROMO_TILE_SIZE;
  // Smaller type for a longer name, so up to the stores' 50 characters fits in two lines.
  const size = options.name.length > 24 ? 26 : 34;
  return `<!doctype html><html><meta charset="utf-8"><style>
html,body{margin:0;width:${width}px;height:${height}px;overflow:hidden}
body{box-sizing:border-box;display:flex;align-items:center;gap:28px;padding:0 36px;font-family:system-ui,sans-serif;
  color:${textOn(options.brand)};background:linear-gradient(135deg,${options.brand},${darker(options.brand)})}
img{width:112px;height:112px;flex:none}p{margin:0;font-size:${size}px;font-weight:700;line-height:1.15;overflow-wrap:anywhere}
</style><img src="${dataUrl(options.icon)}" alt=""><p>${escape(options.name)}</p></html>`;
}

async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
}

/**
 * Writes `<outDir>/<locale>/1-rewards.png` and `2-profile.png` for each listing, and the promo tile
 * at `tilePath`; returns the screenshots' paths.
 */
export async function storeScreenshots(
  settings: ResolvedSettings,
  listings: Listing[],
  outDir: string,
  buildDir: string,
  tilePath: string,
): Promise<string[]> {
  const sandbox = await startSandbox();
  const written: string[] = [];
  try {
    const extensionDir = buildForShots(settings, sandbox, buildDir);
    const icon = readFileSync(join(extensionDir, 'icon/128.png'));
    for (const listing of listings) {
      sandbox.reset();
      const say = messageLookup(localeMessages(listing.locale));
      const locale = listing.locale.replace('_', '-');
      const ext = await launchExtension({ extensionDir, sandbox, locale, keepWelcome: true });
      try {
        // Connected as a new panelist would, on the install's welcome, by the labels of this language.
        const options = await welcomeTab(ext.context, `chrome-extension://${ext.extensionId}`);
        await options.getByLabel(say('accessToken'), { exact: true }).fill(sandbox.token);
        await options.getByRole('button', { name: say('connect'), exact: true }).click();
        await options.getByRole('button', { name: say('disconnect'), exact: true }).waitFor();
        await options.setViewportSize({ width: 660, height: 640 });
        // The profile's questions are there (the save bar shows only once something changed).
        await options.locator('section:has(#profile-heading) .field').first().waitFor();
        await settled(options);
        // The profile editor, from its heading: the connection above it shows only the sandbox's address.
        await options
          .locator('#profile-heading')
          .evaluate((heading) => heading.closest('section')?.scrollIntoView({ block: 'start' }));
        const popup = await ext.openPage('popup.html');
        await popup.setViewportSize({ width: 380, height: 640 });
        await popup.locator('.reward').first().waitFor();
        await settled(popup);

        const canvas = await ext.context.newPage();
        if (listing === listings[0]) {
          await canvas.setViewportSize(PROMO_TILE_SIZE);
          await canvas.setContent(promoTile({ brand: settings.brandColor, icon, name: settings.panelName }));
          await canvas.screenshot({ path: tilePath, animations: 'disabled' });
        }
        await canvas.setViewportSize(SHOT_SIZE);
        const dir = join(outDir, listing.locale);
        mkdirSync(dir, { recursive: true });
        for (const [file, page, headline] of [
          ['1-rewards.png', popup, listing.headlines.rewards],
          ['2-profile.png', options, listing.headlines.profile],
        ] as const) {
          const shot = await page.screenshot({ animations: 'disabled' });
          await canvas.setContent(
            storeImage({
              brand: settings.brandColor,
              icon,
              name: settings.panelName,
              headline,
              shot,
              locale: listing.locale,
            }),
          );
          const path = join(dir, file);
          await canvas.screenshot({ path, animations: 'disabled' });
          written.push(path);
        }
      } finally {
        await ext.close();
      }
    }
  } finally {
    await sandbox.close();
  }
  return written;
}
