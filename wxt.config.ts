import { defineConfig } from 'wxt';
import { hostPermissionPattern } from './utils/base-url';
import { signInConfigured } from './utils/build-settings';
import { EXTENSION_PAGES_CSP } from './utils/content-policy';
import { appAfterFirstFrame, firstFrameTemplates } from './utils/first-frame-html';
import { firstFrameModules } from './utils/first-frame-modules';
import { forgetOperatorIcon, putKeyBack, renderOperatorIcon, takeKeyOut, useOperatorIcon } from './utils/operator/build-hooks';
import { buildSettings, runtimeSettings } from './utils/operator/panel-config';

/** Origins a panelist may connect to at run time; asked for on "Connect", never granted at install. */
const OPTIONAL_HOSTS = ['https://*/*', 'http://localhost/*', 'http://127.0.0.1/*'];
/** APIs granted only when the panelist turns on what needs them (the preferences). */
const OPTIONAL_APIS = ['notifications'];

/**
 * The operator's settings (panel.config.json, then the environment; README, "Build settings"),
 * read through this one function and checked before anything is built: a wrong key or value
 * stops the build with an error naming it.
 */
const settingsFor = (mode: string) => buildSettings(process.env, mode);

export default defineConfig({
  modules: ['@wxt-dev/webextension-polyfill'],
  imports: false,
  // Test builds go elsewhere so they never overwrite the release build in .output/.
  outDir: process.env.PANEL_OUT_DIR ?? '.output',
  webExt: { disabled: true },
  vite: (env) => {
    const define = { __BUILD_SETTINGS__: JSON.stringify(runtimeSettings(settingsFor(env.mode))) };
    // The popup's first-frame templates, rendered from its components into popup.html, and its app
    // started by the first-frame script, which also hands it the modules both share (issue 19).
    return {
      define,
      plugins: [firstFrameTemplates(define), appAfterFirstFrame(), firstFrameModules()],
      // Both browsers preload modules themselves (Chrome 66, Firefox 115; the manifest asks for 140):
      // Vite's polyfill for older ones would be half a KiB of the popup's first load.
      build: { modulePreload: { polyfill: false } },
    };
  },
  manifest: (env) => {
    const settings = settingsFor(env.mode);
    const apiOrigin = settings.apiBaseUrl ? hostPermissionPattern(settings.apiBaseUrl) : undefined;
    // The token and revocation endpoints are called by the background like the API, so their origins are granted too.
    const oauthOrigins = [settings.oauth.tokenEndpoint, settings.oauth.revocationEndpoint].filter(Boolean).map(hostPermissionPattern);
    const hosts = [...new Set([apiOrigin, ...oauthOrigins].filter((o): o is string => !!o))];
    return {
      name: settings.panelName,
      description: `${settings.panelName}: __MSG_extDescription__`,
      default_locale: 'en',
      // Firefox has no optional `identity` (its schema lists it among the permissions that need no
      // prompt): a Firefox build that offers sign-in asks for it at install, silently.
      permissions: ['storage', 'alarms', 'idle', ...(env.manifestVersion === 2 && signInConfigured(settings) ? ['identity'] : [])],
      // MV2 (Firefox): WXT moves these into `permissions`, granted at install.
      host_permissions: hosts,
      optional_host_permissions: OPTIONAL_HOSTS,
      // MV2 has no optional_host_permissions (WXT drops the key without converting it): there the
      // origins go in optional_permissions, or Firefox refuses permissions.request() for them.
      // Asked for when needed, never at install: `identity` (Chrome) when the panelist presses "Sign
      // in", `notifications` (issue 11) when they turn notifications on. Firefox cannot make
      // `identity` optional (see the README).
      optional_permissions: env.manifestVersion === 2 ? [...OPTIONAL_HOSTS, ...OPTIONAL_APIS] : ['identity', ...OPTIONAL_APIS],
      // Images only from the extension, data: and where a panel may be, no media (utils/content-policy.ts).
      // WXT writes it as MV2's plain string for Firefox.
      content_security_policy: { extension_pages: EXTENSION_PAGES_CSP },
      // MV2 (Firefox) names it browser_action; WXT fills that key from the popup and drops `action`.
      [env.manifestVersion === 2 ? 'browser_action' : 'action']: {
        // The toolbar button's own icon (public/icon/, or the operator's `icon`; all listed in `icons` by WXT), sharp at 1x and 2x.
        default_icon: { 16: 'icon/16.png', 32: 'icon/32.png' },
      },
      // Chrome only: the store item's public key pins the extension id, so the sign-in redirect
      // URL is known before publishing (`npm run ids`). The store's zip leaves it out (hooks below).
      ...(env.browser !== 'firefox' && settings.chromeKey ? { key: settings.chromeKey } : {}),
      // Firefox only: Chrome reports the key as unrecognized.
      ...(env.browser === 'firefox'
        ? {
            browser_specific_settings: {
              gecko: {
                id: settings.geckoId,
                // data_collection_permissions needs Firefox 140 (Android 142); the linter warns below that.
                strict_min_version: '140.0',
                data_collection_permissions: { required: ['none'] },
              },
              gecko_android: { strict_min_version: '142.0' },
            },
          }
        : {}),
    };
  },
  hooks: {
    // The operator's icon (`icon`): every size made from it, in place of public/icon/.
    'build:before': (wxt) => renderOperatorIcon(settingsFor(wxt.config.mode).icon),
    'build:publicAssets': (_wxt, files) => useOperatorIcon(files),
    'build:done': () => forgetOperatorIcon(),
    // The Chrome Web Store refuses a zip whose manifest has `key`; the unpacked build keeps it.
    'zip:extension:start': (wxt) => takeKeyOut(wxt),
    'zip:extension:done': () => putKeyBack(),
    // Firefox MV2: an event page (persistent: false), unloaded when idle like Chrome's service
    // worker; everything that matters is in storage and alarms (design, "Contexts").
    'build:manifestGenerated': (wxt, manifest) => {
      const background = manifest.background;
      if (wxt.config.manifestVersion === 2 && background && 'scripts' in background) background.persistent = false;
      // WXT takes the toolbar button's title from popup.html's <title>; it is the operator's name.
      const button = manifest.action ?? manifest.browser_action;
      if (button) button.default_title = settingsFor(wxt.config.mode).panelName;
    },
  },
  zip: {
    // Firefox's sources zip is what a reviewer rebuilds from: the build's inputs only. WXT already
    // leaves out node_modules, the output directory, *.test.* files and dotfiles (.env, .git, .wxt).
    excludeSources: ['tests/**', 'bench/**', 'web-ext-artifacts/**', '**/*.log', '**/*.zip', '**/*.pem', '**/*.key', 'vitest.config.ts', 'stryker.config.mjs', 'reports/**', '.stryker-tmp/**'],
  },
});
