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
  return imageJudge(panelOrigin)(url);
}

/** Hosts whose verdict one judge keeps: a catalogue's images come from a handful. */
const KEPT_VERDICTS = 256;

/**
 * A URL's scheme and authority as written: two addresses that start alike up to their path have one
 * origin (the parser's authority ends at the first `/`, `\\`, `?` or `#`, all within this, and what
 * follows it — path, query, fragment — never makes an address fail to parse).
 */
export const URL_START = /^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i;

/**
 * {@link safeImageUrl} for one panel, remembering each verdict by how the address starts (its
 * scheme and authority as written), and for a start not seen, by its host as parsed: judging a host
 * costs some 40 µs and parsing an address some more, and a catalogue of 5,000 rewards carries 35,000
 * image addresses from a few hosts (parsing each took 0.2–0.5 s of the catalogue's read).
 */
function imageJudge(panelOrigin: string): (url: unknown) => string {
  const panel = canonicalOrigin(panelOrigin);
  const verdicts = new Map<string, boolean>();
  const byStart = new Map<string, boolean>();
  return (url) => {
    if (typeof url !== 'string' || url === '') return '';
    const start = URL_START.exec(url)?.[0];
    const known = start === undefined ? undefined : byStart.get(start);
    if (known !== undefined) return known ? url : '';
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return '';
    }
    const key = `${parsed.protocol}//${parsed.host}`;
    let safe = verdicts.get(key);
    if (safe === undefined) {
      const origin = canonicalOrigin(parsed);
      safe = (origin !== null && origin === panel) || (parsed.protocol === 'https:' && isPublicHost(parsed));
      if (verdicts.size < KEPT_VERDICTS) verdicts.set(key, safe);
    }
    if (start !== undefined && byStart.size < KEPT_VERDICTS) byStart.set(start, safe);
    return safe ? url : '';
  };
}

/** Every reward with every image address it carries kept only where {@link safeImageUrl} allows it. */
export function withSafeImages(rewards: readonly Reward[], panelOrigin: string): Reward[] {
  const judge = imageJudge(panelOrigin);
  return rewards.map((reward) => {
    const meta = reward.meta_data ?? {};
    const urls =
      meta.image_urls && Object.fromEntries(Object.entries(meta.image_urls).filter(([, url]) => judge(url) !== ''));
    return {
      ...reward,
      image_url: judge(reward.image_url),
      meta_data: {
        ...meta,
        ...(meta.image_url !== undefined ? { image_url: judge(meta.image_url) } : {}),
        ...(urls ? { image_urls: urls } : {}),
      },
    };
  });
}
