/**
 * The panelist key the doctor reads with: from PANEL_DOCTOR_TOKEN, or typed at a prompt that
 * shows nothing of it. It is kept in memory only: never printed, logged or written anywhere.
 */
import type { Readable, Writable } from 'node:stream';

export const TOKEN_VARIABLE = 'PANEL_DOCTOR_TOKEN';

export class TokenUnavailable extends Error {}

/** A terminal's input: a stream that can stop echoing what is typed. */
type TtyInput = Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };

export async function readToken(
  env: Record<string, string | undefined>,
  input: TtyInput,
  output: Writable,
): Promise<string> {
  const fromEnv = env[TOKEN_VARIABLE]?.trim();
  if (fromEnv) return fromEnv;
  if (!input.isTTY || !input.setRawMode) {
    throw new TokenUnavailable(
      `No key: set ${TOKEN_VARIABLE} to a test panelist's personal key, or run the doctor in a terminal to be asked for it.`,
    );
  }
  output.write("A test panelist's personal key (nothing shows as you type): ");
  input.setRawMode(true);
  input.resume();
  try {
    return await new Promise<string>((resolve, reject) => {
      let typed = '';
      const onData = (chunk: Buffer | string) => {
        for (const char of chunk.toString('utf8')) {
          if (char === '\r' || char === '\n') {
            input.off('data', onData);
            return typed.trim() ? resolve(typed.trim()) : reject(new TokenUnavailable('No key was typed.'));
          }
          if (char === '\u0003' || char === '\u0004') {
            input.off('data', onData);
            return reject(new TokenUnavailable('Stopped: no key was given.'));
          }
          if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
          else if (char >= ' ') typed += char;
        }
      };
      input.on('data', onData);
    });
  } finally {
    input.setRawMode(false);
    input.pause();
    output.write('\n');
  }
}
