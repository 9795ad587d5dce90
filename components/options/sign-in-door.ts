type Ext = {
  identity?: { launchWebAuthFlow?: unknown };
  runtime: { getManifest(): { optional_permissions?: string[] } };
};

/**
 * Whether "Sign in" opens an ordinary tab here rather than the browser's sign-in window, as the
 * background decides it (entrypoints/background/session/sign-in.ts, `signInDoor`): there is no
 * `identity` API, and none to ask for — Firefox for Android, whose manifest lists `identity` among
 * the permissions it skips. Chrome lists it as optional and is granted it on the click, so a window.
 */
export function signInOpensTab(): boolean {
  const api = globalThis as { browser?: Ext; chrome?: Ext };
  const ext = api.browser ?? api.chrome;
  if (!ext) return false;
  if (typeof ext.identity?.launchWebAuthFlow === 'function') return false;
  return !ext.runtime.getManifest().optional_permissions?.includes('identity');
}
