import { browser } from 'wxt/browser';
import { hostPermissionPattern } from '../../../utils/base-url';
import { serialQueue } from '../../../utils/serial-queue';
import { credentialsItem } from '../store/credentials';

/**
 * Host access follows the connection, never held unused. The options page asks for a panel's origin inside
 * the Connect click (only a page can, on a user gesture); from then on the background gives back
 * every granted origin that no connection uses: after a refused or superseded connect, on
 * Disconnect, when another panel takes over, and at browser start (a page closed between the grant
 * and its connect). What the manifest grants — the build's own panel, its token and revocation
 * endpoints — is a required permission and never given back.
 */

/** Patterns a connect still in progress relies on, counted: two pages may connect to one panel. */
const inUse = new Map<string, number>();
const queue = serialQueue();

/** Runs a connect to `origin` with its access kept meanwhile, then gives back what the outcome left unused. */
export function usingHostAccess<T>(origin: string, connect: () => Promise<T>): Promise<T> {
  const pattern = hostPermissionPattern(origin);
  inUse.set(pattern, (inUse.get(pattern) ?? 0) + 1);
  const release = () => {
    const left = (inUse.get(pattern) ?? 1) - 1;
    if (left > 0) inUse.set(pattern, left);
    else inUse.delete(pattern);
  };
  // finally waits for a promise its callback returns: the connect settles once the access is given back.
  // oxlint-disable-next-line typescript/no-misused-promises
  return connect().finally(() => settleHostAccess(release));
}

/**
 * Gives back every optional origin that neither the stored connection nor a connect in progress
 * uses. One settling at a time, and a connect's own claim is dropped only when its turn comes, so
 * none decides on credentials read before another connect had stored its own. Never rejects: a
 * permission that could not be removed must not fail a disconnect.
 */
export function settleHostAccess(release?: () => void): Promise<void> {
  return queue
    .run(async () => {
      release?.();
      await giveBack();
    })
    .catch(() => undefined);
}

async function giveBack(): Promise<void> {
  const [granted, credentials] = await Promise.all([browser.permissions.getAll(), credentialsItem.getValue()]);
  const keep = new Set([...requiredOrigins(), ...inUse.keys()]);
  if (credentials) keep.add(hostPermissionPattern(credentials.baseUrl));
  const spare = (granted.origins ?? []).filter((origin) => !keep.has(origin));
  // One by one, each settling on its own: a browser that refuses one (a required or unknown
  // pattern) still removes the rest, and a refusal is not an error of the settling.
  await Promise.allSettled(spare.map((origin) => browser.permissions.remove({ origins: [origin] })));
}

/**
 * The manifest's own host permissions (MV3 `host_permissions`; MV2 lists them in `permissions`). The
 * API names beside them there ("storage") join the keep set too: no granted origin is spelled so.
 */
function requiredOrigins(): string[] {
  const manifest = browser.runtime.getManifest() as { host_permissions?: string[]; permissions?: string[] };
  // Stryker disable next-line ArrayDeclaration: a missing list's stand-in only joins the keep set, where no granted origin matches a made-up entry
  const { host_permissions: hosts = [], permissions = [] } = manifest;
  return [...hosts, ...permissions];
}
