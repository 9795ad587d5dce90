/**
 * Where a link into the options page starts answering: `options.html#answer-NAME` opens
 * the one-at-a-time answering at that question (`#answer` alone: at the first open one). The popup's
 * "Answer now" and a new question's notification link there.
 */
const ANSWER = '#answer';

export function answerHash(name: string | null | undefined): string {
  return name ? `${ANSWER}-${encodeURIComponent(name)}` : ANSWER;
}

/** The question a hash asks to answer: its name, null for "the first open one", undefined when the hash is not about answering. */
export function answerTarget(hash: string): string | null | undefined {
  if (hash === ANSWER) return null;
  if (!hash.startsWith(`${ANSWER}-`)) return undefined;
  try {
    return decodeURIComponent(hash.slice(ANSWER.length + 1)) || null;
  } catch {
    return null;
  }
}
