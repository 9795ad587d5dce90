import { canonicalOrigin, isPublicHost } from './hosts';
import type { Reward } from './types';

/**
 * Where a reward's image may be loaded from: an `https:` address on a public host
 * (utils/hosts.ts: not private, loopback, link-local or otherwise off the open internet, however
 * spelled: `https://localhost./…`, `https://0x7f.1/…`, `https://[::ffff:127.0.0.1]/…`), or the panel's own
 * origin (which a panel in development may serve over plain http), compared in the same canonical
 * form. Anything else — `javascript:`, `data:`, `ftp:`, `http:` elsewhere,
 * `https://169.254.169.254/…` — is no image at all: the brand tile stands in.
 */
export function safeImageUrl(url: unknown, panelOrigin: string): string {
  if (typeof url !== 'string' || url === '') return '';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '';
  }
  const origin = canonicalOrigin(parsed);
  if (origin !== null && origin === canonicalOrigin(panelOrigin)) return url;
  return parsed.protocol === 'https:' && isPublicHost(parsed) ? url : '';
}

/** The reward with every image address it carries kept only where {@link safeImageUrl} allows it. */
export function withSafeImages(reward: Reward, panelOrigin: string): Reward {
  const meta = reward.meta_data ?? {};
  const urls =
    meta.image_urls &&
    Object.fromEntries(Object.entries(meta.image_urls).filter(([, url]) => safeImageUrl(url, panelOrigin) !== ''));
  return {
    ...reward,
    image_url: safeImageUrl(reward.image_url, panelOrigin),
    meta_data: {
      ...meta,
      ...(meta.image_url !== undefined ? { image_url: safeImageUrl(meta.image_url, panelOrigin) } : {}),
      ...(urls ? { image_urls: urls } : {}),
    },
  };
}
