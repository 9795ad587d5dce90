import { direction, t } from './i18n';
import { textOn } from './contrast';
import { settings } from './settings';

export { textOn };

/**
 * Applies the operator's colour and name (build settings) and the messages' language and writing
 * direction to a page. Text on the brand colour is black or white, whichever contrasts more, so any
 * colour stays legible.
 */
export function applyBrand(doc: Document = document): void {
  const root = doc.documentElement;
  root.style.setProperty('--brand', settings.brandColor);
  root.style.setProperty('--on-brand', textOn(settings.brandColor));
  const lang = t('lang');
  root.lang = lang;
  // Arabic pages mirror: the stylesheets use logical properties only (tests/unit/rtl.test.tsx).
  root.dir = direction(lang);
  doc.title = settings.panelName;
}
