import type { PanelApiConfig } from '../../../utils/api/client';

/** Time-outs and retry delays; tests shorten them (the model-based test runs hundreds of sessions). */
export const httpTuning: Omit<Partial<PanelApiConfig>, 'baseUrl' | 'token'> = {};
