/**
 * `npm run doctor -- [PANEL_API_URL]`: reads the panel as the extension would and reports what
 * panelists would meet (README, "For panel operators"). The address defaults to the build's
 * apiBaseUrl (panel.config.json, then PANEL_API_BASE_URL); the key comes from PANEL_DOCTOR_TOKEN
 * or a prompt that does not echo it. Only reads are sent. Exit code: 0 when nothing found would
 * break panelists, 1 when something would, 2 when the doctor could not run.
 */
import { PanelConfigError, buildSettings } from '../../utils/operator/panel-config';
import { diagnose } from './doctor/diagnose';
import { formatReport } from './doctor/report';
import { breaksPanelists } from './doctor/report-types';
import { TokenUnavailable, readToken } from './doctor/token';
import { installNodeI18n } from './node-i18n';

async function main(): Promise<number> {
  const settings = buildSettings(process.env, 'production');
  const baseUrl = process.argv.slice(2).find((arg) => !arg.startsWith('-')) ?? settings.apiBaseUrl;
  if (!baseUrl) {
    console.error('Which panel? npm run doctor -- https://api.your-panel.example (or set apiBaseUrl in panel.config.json).');
    return 2;
  }
  // The extension's messages, in English, for what its client says.
  installNodeI18n('en');
  const token = await readToken(process.env, process.stdin, process.stderr);
  const report = await diagnose({ baseUrl, token, balanceVariable: settings.balanceVariable });
  console.log(formatReport(report));
  return breaksPanelists(report) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (!(error instanceof PanelConfigError || error instanceof TokenUnavailable)) throw error;
    console.error(error.message);
    process.exit(2);
  },
);
