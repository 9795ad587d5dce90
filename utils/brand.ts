import { settings } from './settings';

/** Applies the operator's colour and name to a page (build settings). */
export function applyBrand(doc: Document = document): void {
  doc.documentElement.style.setProperty('--brand', settings.brandColor);
  doc.title = settings.panelName;
}
