/**
 * The extension's messages, in English, before any of its modules is evaluated: some compute a
 * message once as they load (utils/api/http.ts's UNAUTHORIZED_MESSAGE), and without the catalogue
 * in place they would keep the bare key (`httpTokenNotAccepted`). Imported first by doctor.ts.
 */
import { installNodeI18n } from '../node-i18n';

installNodeI18n('en');
