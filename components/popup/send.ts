import type * as Messages from '../../utils/messages';

/**
 * `sendMessage`, loaded beside the first frame rather than before it: the messaging library is not
 * needed to paint, and leaving it out of the first chunk keeps the popup within its 20 KiB budget.
 * The load starts as soon as the popup's code runs; once it is there, calls go straight through.
 */
let loaded: typeof Messages | undefined;
const loading = import('../../utils/messages').then((m) => (loaded = m));
// Where the library cannot load (the first frame's templates are rendered at build time, outside any
// extension) importing this module must not fail; a message sent there fails as it would anyway.
loading.catch(() => undefined);

export const send = ((...args: Parameters<typeof Messages.sendMessage>) =>
  loaded ? loaded.sendMessage(...args) : loading.then((m) => m.sendMessage(...args))) as typeof Messages.sendMessage;
