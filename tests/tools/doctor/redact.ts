/**
 * Keeping the panelist key out of everything the doctor and the pre-flight print. The key is matched as a whole
 * token, never as a piece of a longer one: `PANEL_DOCTOR_TOKEN=x` must not turn
 * `https://example.com` into `https://e[key]ample.com`, nor a key `1` mangle `127.0.0.1`. An
 * occurrence counts when neither neighbour is a character keys are made of (letters, digits and
 * `. _ ~ + / -`, the alphabets of hex, base64, base64url and JWTs): it is whole in `Bearer KEY`,
 * `"token":"KEY"` or `key=KEY&`. A key of 16 characters or more is also removed wherever it stands,
 * glued to other text included: a string that long and random never occurs by accident, so only
 * the key itself is touched.
 *
 * A panel may echo the key as it was written into an address (`?token=abc%2Bdef`) or into JSON
 * (`"abc\/def"`, as PHP writes a slash), so each of those spellings is the key too
 * ({@link secretForms}).
 *
 * The commands print through one gate ({@link redactOutput}): once the key is known, every write to
 * stdout and stderr, progress, report, usage and error alike, passes through {@link redactSecrets}.
 */

/** The characters a key is made of: a neighbour from this set makes an occurrence part of a longer token. */
const KEY_CHAR = '[A-Za-z0-9._~+/-]';
/** From this length an occurrence anywhere is the key (not a coincidence). */
const ANYWHERE_FROM = 16;

export const REDACTED = '[key]';

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** The ways a panel may write the key back: as it is, escaped in an address, escaped in JSON. */
export function secretForms(secret: string): string[] {
  if (!secret) return [];
  const forms = [
    secret,
    encodeURIComponent(secret),
    encodeURIComponent(secret).replace(/%20/g, '+'),
    JSON.stringify(secret).slice(1, -1),
    JSON.stringify(secret).slice(1, -1).replace(/\//g, '\\/'),
  ];
  // Longest first, so a form is never cut by a shorter one it contains.
  return [...new Set(forms)].sort((a, b) => b.length - a.length);
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

export interface RedactedOutput {
  /** From now on, this secret (in each of its forms) never reaches the streams. */
  hide(secret: string): void;
}

/**
 * Puts stdout and stderr behind the redaction, for the rest of the process. Each write is redacted
 * whole: every line the tools write carries a key whole or not at all (a URL, a body, a message),
 * so no key is split across two writes.
 */
export function redactOutput(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): RedactedOutput {
  const secrets: string[] = [];
  for (const stream of streams) {
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    stream.write = (chunk: unknown, ...rest: unknown[]) => {
      if (secrets.length === 0) return write(chunk, ...rest);
      const encoding = typeof rest[0] === 'string' ? (rest[0] as BufferEncoding) : 'utf8';
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString(encoding);
      return write(redactSecrets(text, secrets), ...(typeof rest[0] === 'string' ? rest.slice(1) : rest));
    };
  }
  return {
    hide(secret) {
      for (const form of secretForms(secret.trim())) if (!secrets.includes(form)) secrets.push(form);
      secrets.sort((a, b) => b.length - a.length);
    },
  };
}
