import { relative, resolve } from 'node:path';
import { defineConfig } from 'wxt';
import { localPanelsInBuild } from './utils/base-url';
import { signInConfigured } from './utils/build-settings';
import { extensionPagesCsp } from './utils/content-policy';
import { appAfterFirstFrame } from './utils/build/first-frame-html';
import { firstFrameModules } from './utils/build/first-frame-modules';
import {
  forgetOperatorIcon,
  putKeyBack,
  renderOperatorIcon,
  takeKeyOut,
  useOperatorIcon,
} from './utils/build/operator/build-hooks';
import { firefoxDataCollection } from './utils/build/operator/data-collection';
import { manifestPermissions } from './utils/build/operator/manifest-permissions';
import {
  buildSettings,
  formatWarnings,
  runtimeSettings,
  type ResolvedSettings,
} from './utils/build/operator/panel-config';
import { checkSettings } from './utils/build/operator/settings-check';
import { NEVER_IN_SOURCES, SOURCE_PATHS, sourcesAllowList } from './utils/build/operator/sources';

/**
 * The operator's settings (panel.config.json, then the environment; OPERATORS.md, "Build settings"),
 * read through this one function. The manifest, made first, checks them in one pass before
 * anything is built (utils/build/operator/settings-check.ts): every wrong key or value, icon problem and
 * too-long description stops the build in one list naming each.
 */
const settingsFor = (mode: string) => buildSettings(process.env, mode);

/** The one-pass check, once per mode and settings, its warnings printed once. */
const checked = new Map<string, Promise<ResolvedSettings>>();
function checkedSettingsFor(mode: string): Promise<ResolvedSettings> {
  const key = JSON.stringify([
    mode,
    Object.entries(process.env)
      .filter(([name]) => name.startsWith('PANEL_'))
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  ]);
  let settings = checked.get(key);
  if (!settings) {
    settings = checkSettings(process.env, mode).then(({ settings, warnings }) => {
      if (warnings.length) console.warn(formatWarnings(warnings));
      return settings;
    });
    checked.set(key, settings);
  }
  return settings;
}

export default defineConfig({
  modules: ['@wxt-dev/webextension-polyfill'],
  imports: false,
  // Test builds go elsewhere so they never overwrite the release build in .output/.
  outDir: process.env.PANEL_OUT_DIR ?? '.output',
  webExt: { disabled: true },
  vite: async (env) => {
    // Checked in one pass, with the sign-in server's metadata where the build names its issuer.
    const runtime = runtimeSettings(await checkedSettingsFor(env.mode));
    // Sign-in as a constant too, so a build without it leaves its code out (utils/settings.ts).
    const define = {
      __BUILD_SETTINGS__: JSON.stringify(runtime),
      __SIGN_IN_BUILT__: JSON.stringify(signInConfigured(runtime)),
    };
    // The popup's app started by the first-frame script, which also hands it the modules both
    // share (the models, the views, the JSX runtime), so they are loaded once.
    return {
      define,
      plugins: [appAfterFirstFrame(), firstFrameModules()],
      // Both browsers preload modules themselves (Chrome 66, Firefox 115; the manifest asks for 140):
      // Vite's polyfill for older ones would be half a KiB of the popup's first load.
      // A lazy part's own imports are not listed for preloading beside it (its stylesheets still
      // are): the list rode in the popup's first load (0.3 KiB gzip), while the module loader
      // fetches those imports itself a moment later, from the package on disk. A page's own
      // modulepreload links stay.
      build: {
        modulePreload: {
          polyfill: false,
          resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []),
        },
      },
    };
  },
  manifest: async (env) => {
    const settings = await checkedSettingsFor(env.mode);
    return {
      name: settings.panelName,
      // manifestDescription (utils/build/operator/store-listing.ts), checked against Chrome's 132 characters in every language.
      description: `${settings.panelName}: __MSG_extDescription__`,
      default_locale: 'en',
      // Only what this build can use (utils/build/operator/manifest-permissions.ts): `identity` only with
      // sign-in, any https:// origin only when the build names no panel, local panels never in a
      // build for an https panel.
      ...manifestPermissions(settings, env.manifestVersion),
      // Images only from the extension, data: and where a panel or its catalogue's images may be, no
      // media (utils/content-policy.ts); this machine only in a build that may reach a local panel.
      // WXT writes it as MV2's plain string for Firefox.
      content_security_policy: { extension_pages: extensionPagesCsp(localPanelsInBuild(settings.apiBaseUrl)) },
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
                // What is transmitted, as SUBMIT.md declares it to the Chrome Web Store (utils/build/operator/data-collection.ts).
                data_collection_permissions: firefoxDataCollection(settings),
              },
              gecko_android: { strict_min_version: '142.0' },
            },
          }
        : {}),
    };
  },
  hooks: {
    // .wxt/tsconfig.json is the same whatever folder a build writes to: WXT names the build's own
    // folder in its `exclude` and every build rewrites the file (only when it differs) and reads it
    // back, so two builds into different folders at once (the browser tests' lanes, the release
    // builds of the tool tests, the Firefox lint beside the typecheck) read each other's half-written
    // file ("Failed to load tsconfig … trailing characters"). Naming .output, as `wxt prepare` does,
    // loses nothing: the root tsconfig.json includes the source folders only, and builds go under
    // .output/ or outside the project.
    'prepare:tsconfig': (wxt, { tsconfig }) => {
      const fromWxtDir = (path: string) => relative(wxt.config.wxtDir, resolve(wxt.config.root, path));
      tsconfig.exclude = [`${fromWxtDir('.')}/**/node_modules`, fromWxtDir('.output')];
    },
    // The operator's icon (`icon`): every size made from it, in place of public/icon/.
    'build:before': (wxt) => renderOperatorIcon(settingsFor(wxt.config.mode).icon),
    'build:publicAssets': (_wxt, files) => useOperatorIcon(files),
    'build:done': () => forgetOperatorIcon(),
    // The Chrome Web Store refuses a zip whose manifest has `key`; the unpacked build keeps it.
    'zip:extension:start': (wxt) => takeKeyOut(wxt),
    'zip:extension:done': () => putKeyBack(),
    // The sources zip holds the allow-list and this build's config file and icon (utils/build/operator/sources.ts).
    'zip:sources:start': (wxt) => {
      wxt.config.zip.includeSources = sourcesAllowList(settingsFor(wxt.config.mode), wxt.config.root);
    },
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
    // Firefox's sources zip is what a reviewer rebuilds from: the build's inputs only, named one by
    // one (the hook above adds the config file and the icon). WXT also leaves out node_modules, the
    // output directory, *.test.* files and dotfiles (.env, .git, .wxt).
    includeSources: [...SOURCE_PATHS],
    excludeSources: [...NEVER_IN_SOURCES],
  },
});
