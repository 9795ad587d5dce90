import type { settings } from '../../utils/settings';
import { NO_METADATA } from '../../utils/sign-in-server';

/** The build settings of a build that offers sign-in ("Sign in to Test Panel"), for `vi.mock('../../utils/settings')`. */
export const SIGN_IN_SETTINGS: typeof settings = {
  apiBaseUrl: 'https://panel.example.com/api',
  panelName: 'Test Panel',
  brandColor: '#000',
  balanceVariable: 'P',
  geckoId: 'x',
  devToken: '',
  tokenHelpUrl: '',
  earnUrl: '',
  oauth: {
    authorizationEndpoint: 'https://login.example.com/authorize',
    tokenEndpoint: 'https://login.example.com/token',
    clientId: 'ext',
    scopes: '',
    issuer: 'https://login.example.com',
    revocationEndpoint: '',
    consentPrompt: '',
    tabRedirectUrl: '',
  },
  oauthServer: NO_METADATA,
};
