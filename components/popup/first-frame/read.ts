import { FIRST_FRAME_ITEMS } from './items';

type Local = Pick<typeof chrome.storage.local, 'get'>;
const native = globalThis as { browser?: { storage?: { local?: Local } }; chrome?: { storage?: { local?: Local } } };

/**
 * The first frame's one storage read, sent as this module is evaluated: the first-frame script
 * (entrypoints/first-frame.ts) imports it before anything else, so the read is under way while the
 * rest of the script (the views, the models, the words) is evaluated, as the floor page's is sent
 * at once. A rejected promise where there is no storage to read: the script then starts the app.
 */
const local = native.browser?.storage?.local ?? native.chrome?.storage?.local;
export const firstRead: Promise<Record<string, unknown>> = local
  ? local.get(FIRST_FRAME_ITEMS.map((item) => item.key))
  : Promise.reject(new Error('no extension storage here'));
