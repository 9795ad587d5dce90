/**
 * Keeping the panelist key out of everything the doctor prints. The key is matched as a whole
 * token, never as a piece of a longer one: `PANEL_DOCTOR_TOKEN=x` must not turn
 * `https://example.com` into `https://e[key]ample.com`, nor a key `1` mangle `127.0.0.1`. An
 * occurrence counts when neither neighbour is a character keys are made of (letters, digits and
 * `. _ ~ + / -`, the alphabets of hex, base64, base64url and JWTs): it is whole in `Bearer KEY`,
 * `"token":"KEY"` or `key=KEY&`. A key of 16 characters or more is also removed wherever it stands,
 * glued to other text included: a string that long and random never occurs by accident, so only
 * the key itself is touched.
 */

/** The characters a key is made of: a neighbour from this set makes an occurrence part of a longer token. */
const KEY_CHAR = '[A-Za-z0-9._~+/-]';
/** From this length an occurrence anywhere is the key (not a coincidence). */
const ANYWHERE_FROM = 16;

export const REDACTED = '[key]';

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** `text` with every whole-token occurrence of each secret replaced by `[key]`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret) continue;
    if (secret.length >= ANYWHERE_FROM) {
      out = out.split(secret).join(REDACTED);
      continue;
    }
    out = out.replace(new RegExp(`(?<!${KEY_CHAR})${escape(secret)}(?!${KEY_CHAR})`, 'g'), REDACTED);
  }
  return out;
}
