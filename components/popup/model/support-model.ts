import { t } from '../../../utils/i18n';

/**
 * The words of the "Details for support" disclosure (SupportDetails.tsx), as a model so the first
 * frame's template has markers for them. Apart from the component so the first-frame script, which
 * builds the header's model, does not bundle Preact.
 */
export function supportModel(text: string) {
  return { summary: t('supportDetails'), text, copy: t('supportCopy'), copied: t('supportCopied') };
}

export type SupportModel = ReturnType<typeof supportModel>;
