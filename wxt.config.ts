import { defineConfig } from 'wxt';
import { hostPermissionPattern } from './utils/base-url';
import { buildSettings, signInConfigured } from './utils/build-settings';

/** Origins a panelist may connect to at run time; asked for on "Connect", never granted at install. */
const OPTIONAL_HOSTS = ['https://*/*', 'http://localhost/*', 'http://127.0.0.1/*'];
/** APIs granted only when the panelist turns on what needs them (the preferences). */
const OPTIONAL_APIS = ['notifications'];

// A link the popup shows as "Earn more points": only a web address may become one.
if (process.env.PANEL_EARN_URL && !/^https?:\/\/[^\s]+$/.test(process.env.PANEL_EARN_URL)) {
  throw new Error('PANEL_EARN_URL must be an https:// (or http://) address');
}

// Build settings come from the environment so a panel operator can ship the extension
// under their own name and API without touching code (see README, "Build settings").
export default defineConfig({
  modules: ['@wxt-dev/webextension-polyfill'],
  imports: false,
  // Test builds go elsewhere so they never overwrite the release build in .output/.
  outDir: process.env.PANEL_OUT_DIR ?? '.output',
  webExt: { disabled: true },
  vite: (env) => ({
    define: {
      __BUILD_SETTINGS__: JSON.stringify(buildSettings(process.env, env.mode)),
    },
  }),
  manifest: (env) => {
    const settings = buildSettings(process.env, env.mode);
    const apiOrigin = settings.apiBaseUrl ? hostPermissionPattern(settings.apiBaseUrl) : undefined;
    // The token endpoint is called by the background like the API, so its origin is granted too.
    const tokenOrigin = settings.oauth.tokenEndpoint ? hostPermissionPattern(settings.oauth.tokenEndpoint) : undefined;
    const hosts = [...new Set([apiOrigin, tokenOrigin].filter((o): o is string => !!o))];
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
      // MV2 (Firefox) names it browser_action; WXT fills that key from the popup and drops `action`.
      [env.manifestVersion === 2 ? 'browser_action' : 'action']: {
        default_title: settings.panelName,
        // The toolbar button's own icon (public/icon/, all listed in `icons` by WXT), sharp at 1x and 2x.
        default_icon: { 16: 'icon/16.png', 32: 'icon/32.png' },
      },
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
    // Firefox MV2: an event page (persistent: false), unloaded when idle like Chrome's service
    // worker; everything that matters is in storage and alarms (design, "Contexts").
    'build:manifestGenerated': (wxt, manifest) => {
      const background = manifest.background;
      if (wxt.config.manifestVersion === 2 && background && 'scripts' in background) background.persistent = false;
    },
  },
  zip: {
    // Firefox's sources zip is what a reviewer rebuilds from: the build's inputs only. WXT already
    // leaves out node_modules, the output directory, *.test.* files and dotfiles (.env, .git, .wxt).
    excludeSources: ['tests/**', 'bench/**', 'web-ext-artifacts/**', '**/*.log', '**/*.zip', '**/*.pem', '**/*.key', 'vitest.config.ts', 'stryker.config.mjs', 'reports/**', '.stryker-tmp/**'],
  },
});
