import type { BuildSettings } from './build-settings';

declare const __BUILD_SETTINGS__: BuildSettings;
declare const __SIGN_IN_BUILT__: boolean;

/** This build's settings (wxt.config.ts injects them; see utils/build-settings.ts). */
export const settings: BuildSettings = __BUILD_SETTINGS__;

/**
 * Whether this build can offer sign-in at all (its settings name the endpoints and the client:
 * `signInConfigured`), as a constant the bundler folds: a build without sign-in carries neither
 * the sign-in code nor the OAuth library. The worker could not load them later (an MV3 service
 * worker may not use `import()`), and it pays for every byte it carries at each of its starts.
 * Where it is true, the settings are still checked at run time (`signInConfigured`).
 */
export const SIGN_IN_BUILT: boolean = __SIGN_IN_BUILT__;
