import type { BuildSettings } from './build-settings';

declare const __BUILD_SETTINGS__: BuildSettings;

/** This build's settings (wxt.config.ts injects them; see utils/build-settings.ts). */
export const settings: BuildSettings = __BUILD_SETTINGS__;
