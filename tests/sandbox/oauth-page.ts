/** The sandbox authorization server's two pages: sign in, then allow or deny. Plain HTML, no script. */
import type { ApiResult } from './types';

export const OAUTH_PANEL_NAME = 'Sandbox Panel';

const HTML_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  // The page runs no script and loads nothing.
  // No form-action: Chrome applies it to the redirect that follows a form post, which goes to the extension.
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
  'X-Frame-Options': 'DENY',
};

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:26rem;margin:2rem auto;padding:0 1rem}' +
  'label{display:block;margin-top:1rem}input{display:block;width:100%;padding:.4rem;font:inherit;box-sizing:border-box}' +
  'button{margin-top:1.25rem;margin-right:.5rem;padding:.5rem 1rem;font:inherit}.error{color:#b00020}';

function page(status: number, title: string, body: string): ApiResult {
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>` +
    `<meta name="viewport" content="width=device-width"><style>${STYLE}</style></head>` +
    `<body><main><h1>${escape(title)}</h1>${body}</main></body></html>`;
  return { status, text: html, headers: HTML_HEADERS };
}

export function signInPage(txn: string, clientName: string, email = '', error = ''): ApiResult {
  // 200 even for a wrong password: Chrome's sign-in window closes on any error status ("Authorization
  // page could not be loaded"), and the panelist must be able to try again on the page.
  return page(
    200,
    `Sign in to ${OAUTH_PANEL_NAME}`,
    `<p>${escape(clientName)} asks to use your ${OAUTH_PANEL_NAME} account.</p>` +
      (error ? `<p class="error" role="alert">${escape(error)}</p>` : '') +
      `<form method="post" action="/oauth/authorize">` +
      `<input type="hidden" name="txn" value="${escape(txn)}">` +
      `<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" value="${escape(email)}" required>` +
      `<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>` +
      `<button type="submit">Sign in</button></form>`,
  );
}

export function consentPage(txn: string, clientName: string, email: string): ApiResult {
  return page(
    200,
    `Allow ${clientName}?`,
    `<p>Signed in as ${escape(email)}.</p>` +
      `<p>${escape(clientName)} will see your points, rewards, redemptions and profile, ` +
      `change your profile, and redeem rewards when you confirm it.</p>` +
      `<form method="post" action="/oauth/decision"><input type="hidden" name="txn" value="${escape(txn)}">` +
      `<button type="submit" name="decision" value="allow">Allow</button>` +
      `<button type="submit" name="decision" value="deny">Deny</button></form>`,
  );
}

/** For requests that must not be redirected (unknown client, unregistered redirect URL: RFC 6749 §4.1.2.1). */
export function errorPage(status: number, message: string): ApiResult {
  return page(status, 'Sign-in cannot continue', `<p class="error" role="alert">${escape(message)}</p>`);
}

/**
 * The panel's page where sign-in in a tab comes back. The extension reads the address
 * and closes the tab as it arrives; should it not (the tab was not the extension's, or the
 * extension was stopped), the panelist reads where they are. The answer is in the address, never
 * echoed on the page.
 */
export function donePage(query: URLSearchParams): ApiResult {
  const denied = query.has('error');
  return page(
    200,
    denied ? 'Sign-in did not finish' : 'Signed in',
    denied
      ? '<p>The extension was not connected. Close this tab and open the extension to try again.</p>'
      : '<p>You can close this tab and go back to the extension.</p>',
  );
}
