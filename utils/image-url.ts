import type { Reward } from './types';

/**
 * Where a reward's image may be loaded from: an `https:` address that is not a private, loopback or
 * link-local one (a catalogue image host), or the panel's own origin (which a panel in development
 * may serve over plain http). Anything else — `javascript:`, `data:`, `ftp:`, `http:` elsewhere,
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
  if (parsed.origin === panelOrigin) return url;
  return parsed.protocol === 'https:' && !isPrivateHost(parsed.hostname) ? url : '';
}

/** Loopback, private, link-local and unspecified addresses, and `localhost` (the URL parser has already normalised IPv4 forms). */
function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const v4 = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  return (
    host.includes(':') &&
    (host === '::' || host === '::1' || /^f[cd]/.test(host) || /^fe[89ab]/.test(host) || host.startsWith('::ffff:'))
  );
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
