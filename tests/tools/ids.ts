/**
 * `npm run ids`: the Chrome id (and the trusted testers' and Edge items' where set), the Firefox id
 * and the sign-in redirect URLs of the build the settings describe (panel.config.json, then the environment), to register with the OAuth server
 * before publishing: each browser's sign-in window, and the panel's own page where sign-in in a tab
 * comes back (Firefox for Android). `--json` prints them as JSON.
 *
 * `npm run ids -- --new-key [FILE]` makes a key pair of one's own (default FILE: chrome-key.pem,
 * written with mode 600 and never overwritten; *.pem stays out of git and of the sources zip) and
 * prints the public key for `chromeKey`.
 */
import { existsSync, writeFileSync } from 'node:fs';
import {
  chromeIdFromKey,
  chromeRedirectUrl,
  extensionIds,
  newChromeKey,
} from '../../utils/build/operator/extension-ids';
import { settingsWithMetadata } from '../../utils/build/operator/oauth-discovery';
import { PanelConfigError } from '../../utils/build/operator/panel-config';
import { signInServer, signInServerLines } from './ids-server';

function newKey(file: string): void {
  if (existsSync(file)) {
    console.error(
      `${file} is already there; it is not overwritten. Name another file: npm run ids -- --new-key other.pem`,
    );
    process.exit(2);
  }
  const { publicKey, privateKeyPem } = newChromeKey();
  writeFileSync(file, privateKeyPem, { mode: 0o600 });
  const id = chromeIdFromKey(publicKey);
  console.log(
    `Wrote the private key to ${file} (keep it safe and out of git; it signs a self-hosted CRX).\n\n` +
      `Put this public key in panel.config.json as "chromeKey":\n\n${publicKey}\n\n` +
      `Chrome id:           ${id}\nChrome redirect URL: ${chromeRedirectUrl(id)}\n\n` +
      'For the Chrome Web Store, use the key of your store item instead (its dashboard: Package → View public key):\n' +
      'the store gives an item its own key, and only that key gives the id the store publishes under.',
  );
}

async function show(json: boolean): Promise<void> {
  // With the sign-in server's metadata where oauth.issuer names it (the endpoints, what is asked).
  const { settings } = await settingsWithMetadata(process.env, 'production');
  const ids = extensionIds(settings);
  const server = signInServer(settings);
  if (json) {
    console.log(JSON.stringify({ ...ids, ...(server ? { signIn: server } : {}) }, null, 2));
    return;
  }
  const from = settings.configFile
    ? ` (${settings.configFile}, then the environment)`
    : ' (the environment; no panel.config.json)';
  const lines = [`${settings.panelName}${from}`, ''];
  if (ids.chrome) {
    lines.push(
      `Chrome   id            ${ids.chrome.id}  (from chromeKey)`,
      `         redirect URL  ${ids.chrome.redirectUrl}`,
      "                       The Chrome Web Store's id only if chromeKey is your store item's public key (Package →",
      '                       View public key): the store keeps its own id, and the zip it takes has no key.',
    );
  } else {
    lines.push(
      'Chrome   id            not known yet: no chromeKey is set, so the Chrome Web Store assigns one on the first upload.',
      "                       Upload the Chrome zip as a draft, copy the item's public key (Package → View public key)",
      '                       into chromeKey, and run npm run ids again. (npm run ids -- --new-key makes a key of your own.)',
    );
  }
  if (ids.chromeBeta)
    lines.push(
      `Chrome, trusted testers' item`,
      `         id            ${ids.chromeBeta.id}  (chromeBetaId)`,
      `         redirect URL  ${ids.chromeBeta.redirectUrl}`,
      '                       its own item, so its own id: a sign-in build there needs this URL registered too.',
    );
  if (ids.edge)
    lines.push(
      `Edge     id            ${ids.edge.id}  (edgeId)`,
      `         redirect URL  ${ids.edge.redirectUrl}`,
      "                       Edge Add-ons gives the item its own id; its sign-in window is Chromium's.",
    );
  lines.push(
    `Firefox  id            ${ids.firefox.id}  (geckoId)`,
    `         redirect URL  ${ids.firefox.redirectUrl}`,
  );
  if (ids.tab) {
    lines.push(
      `Tab      redirect URL  ${ids.tab.redirectUrl}  (oauth.tabRedirectUrl)`,
      '                       sign-in in a tab: Firefox for Android, which has no sign-in window, and Chrome when the',
      "                       panelist does not allow it. A page on your panel's site that answers 200 (it may say",
      '                       "You can close this tab"); the extension reads its address and closes the tab.',
    );
  }
  lines.push('', ...signInServerLines(server));
  const client = settings.oauth.clientId ? `client "${settings.oauth.clientId}"` : "the extension's client";
  if (ids.tab) {
    lines.push(
      `Register these redirect URLs for ${client} at the OAuth server (OPERATORS.md, "Sign-in"):`,
      `  Chrome:                 ${ids.chrome ? ids.chrome.redirectUrl : 'https://<Chrome id>.chromiumapp.org/ (once the id is known)'}`,
      ...(ids.chromeBeta ? [`  Chrome, trusted testers: ${ids.chromeBeta.redirectUrl}`] : []),
      ...(ids.edge ? [`  Edge:                   ${ids.edge.redirectUrl}`] : []),
      `  Firefox on the desktop: ${ids.firefox.redirectUrl}`,
      `  Firefox for Android:    ${ids.tab.redirectUrl} (also used by any browser without the sign-in window)`,
    );
  } else {
    lines.push(
      `Register ${ids.chrome ? 'both redirect URLs' : 'the redirect URLs'} for ${client} at the OAuth server (OPERATORS.md, "Sign-in").`,
    );
  }
  console.log(lines.join('\n'));
}

try {
  const args = process.argv.slice(2);
  const at = args.indexOf('--new-key');
  if (at >= 0) newKey(args[at + 1] ?? 'chrome-key.pem');
  else await show(args.includes('--json'));
} catch (error) {
  if (!(error instanceof PanelConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
