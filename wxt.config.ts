import { defineConfig } from 'wxt';
import { hostPermissionPattern } from './utils/base-url';
import { buildSettings } from './utils/build-settings';

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
    return {
      name: settings.panelName,
      description: `See your ${settings.panelName} points and redeem rewards from the toolbar.`,
      permissions: ['storage', 'alarms'],
      host_permissions: apiOrigin ? [apiOrigin] : [],
      optional_host_permissions: ['https://*/*', 'http://localhost/*', 'http://127.0.0.1/*'],
      action: { default_title: settings.panelName },
      browser_specific_settings: {
        gecko: {
          id: settings.geckoId,
          strict_min_version: '128.0',
          data_collection_permissions: { required: ['none'] },
        },
      },
    };
  },
});
