import { defineConfig } from 'wxt';
import release from '../../wxt.config';

/**
 * The release configuration with hidden source maps (`.map` files beside the scripts, no comment in
 * them, so every script is byte for byte the release one): what `npm run bench:size` reads to
 * tell which module each byte of the background came from. Never used for a build that ships.
 */
export default defineConfig({
  ...release,
  vite: async (env) => {
    const base = typeof release.vite === 'function' ? await release.vite(env) : (release.vite ?? {});
    return { ...base, build: { ...base.build, sourcemap: 'hidden' } };
  },
});
