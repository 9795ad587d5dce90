/**
 * Answer bodies are read with a ceiling, so a hostile or broken panel cannot make the
 * background hold an endless answer in memory. The API's is far above any real answer: the largest
 * measured, 10,000 redemptions, is 22.4 MB (tests/bench), and storage could not keep much more.
 * The sign-in server's answers are a few hundred bytes.
 */
export const MAX_API_BODY_BYTES = 25_000_000;
export const MAX_OAUTH_BODY_BYTES = 1_000_000;

/** The limit as the panelist reads it ("25 MB"), in their language. */
export function sizeText(bytes: number, locale?: string): string {
  return new Intl.NumberFormat(locale, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 0 }).format(
    bytes / 1_000_000,
  );
}

export type LimitedText = { complete: true; text: string } | { complete: false };

/**
 * A body as text, at most `limit` bytes of it: one that declares a larger `Content-Length` is not
 * read at all, and one that grows past the limit is cancelled where it crosses it (which also ends
 * the download). Rejects as the stream does, e.g. when the request's time-out aborts it.
 */
export async function readLimited(
  body: ReadableStream<Uint8Array> | null | undefined,
  headers: Headers,
  limit: number,
): Promise<LimitedText> {
  if (!body) return { complete: true, text: '' };
  const declared = Number(headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await discard(body);
    return { complete: false };
  }
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return { complete: false };
    }
    parts.push(decoder.decode(value, { stream: true }));
  }
  parts.push(decoder.decode());
  return { complete: true, text: parts.join('') };
}

/** Ends a body nobody will read, so its connection is not kept waiting. */
export async function discard(body: ReadableStream<Uint8Array> | null | undefined): Promise<void> {
  await body?.cancel().catch(() => undefined);
}

/** Thrown by {@link limitedFetch} for an answer over its limit. */
export class BodyTooLargeError extends Error {
  constructor(
    readonly url: string,
    readonly limit: number,
  ) {
    super(`The answer of ${url} is larger than ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/**
 * `fetch` whose answer is read here, at most `limit` bytes, and handed on whole: for a library
 * that reads bodies itself (oauth4webapi's customFetch).
 */
export function limitedFetch(limit: number): (url: string, init: RequestInit) => Promise<Response> {
  return async (url, init) => {
    const response = await fetch(url, init);
    // A manual redirect in a browser: opaque, no body, a status a Response cannot be made with.
    if (response.type === 'opaqueredirect' || response.status === 0) return response;
    const read = await readLimited(response.body, response.headers, limit);
    if (!read.complete) throw new BodyTooLargeError(url, limit);
    const nullBody = response.status === 204 || response.status === 304;
    return new Response(nullBody ? null : read.text, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
