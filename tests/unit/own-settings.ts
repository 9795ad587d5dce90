/**
 * Each unit file its own copy of the build's settings (the first setup file of the unit projects).
 * Vitest puts a `define`d value on the global from one object per worker, and the `vmThreads` pool
 * runs many files in one worker (vitest.config.ts): a file that changes a setting for its tests
 * (`settings.oauth = …`) would change it for every later file there. utils/settings.ts reads the
 * global when a file first imports it, after this.
 */
const own = globalThis as { __BUILD_SETTINGS__?: unknown };
own.__BUILD_SETTINGS__ = structuredClone(own.__BUILD_SETTINGS__);
