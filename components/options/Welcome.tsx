import { t } from '../../utils/i18n';
import { settings } from '../../utils/settings';

/** Where the background's install welcome opens the page (entrypoints/background/welcome.ts WELCOME_PATH). */
export const WELCOME_HASH = '#welcome';

/**
 * The install's welcome, above the way in: what was installed, that connecting comes next, and
 * where the extension lives (Chrome hides a new one under the puzzle piece). Gone once connected.
 */
export function Welcome() {
  return (
    <section class="card welcome" aria-labelledby="welcome-heading">
      <h2 id="welcome-heading">{t('welcomeTitle')}</h2>
      <p>{t('welcomeInstalled', settings.panelName)}</p>
      <p class="muted">{t('welcomePin', settings.panelName)}</p>
    </section>
  );
}
