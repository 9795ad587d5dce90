import { imagePolicy } from '../../../utils/content-policy';

let installed: ReadonlySet<string> | null = null;

/**
 * Adds the run-time image policy (utils/content-policy.ts) to this page, once, before any reward
 * HTML is shown: images only from `origins` (the panel's and the catalogue's image hosts), `data:`
 * and the extension. A policy added later could only narrow this one, never widen it, so the set
 * of the first call holds for the page's life and is returned to every caller: it is also what
 * the details offer to load on request.
 */
export function installImagePolicy(origins: Iterable<string>): ReadonlySet<string> {
  if (installed) return installed;
  installed = new Set(origins);
  const meta = document.createElement('meta');
  meta.httpEquiv = 'Content-Security-Policy';
  meta.content = imagePolicy(installed);
  document.head.append(meta);
  return installed;
}
