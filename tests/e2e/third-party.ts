/**
 * A second server on 127.0.0.1 standing for a third party (a tracker, another brand's CDN): it
 * answers 404 to everything and records every path that reaches it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ThirdParty {
  /** http://127.0.0.1:PORT */
  url: string;
  /** Paths requested so far, in order (query included). */
  hits: string[];
  close(): Promise<void>;
}

export async function startThirdParty(): Promise<ThirdParty> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What adding markup led to: the content security policy violations as "directive /path", and the paths that reached the third party. */
export interface Seen {
  violations: string[];
  hits: string[];
}

/**
 * Runs in an extension page (Playwright's or puppeteer's `evaluate(watch, markup)`): given markup,
 * adds it to the page and records the content security policy violations that follow, as
 * "directive /path"; returns the violations recorded so far.
 */
export function watch(markup: string | null): string[] {
  const page = window as unknown as { __violations?: string[] };
  if (markup !== null) {
    const seen: string[] = [];
    page.__violations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} ${new URL(e.blockedURI).pathname}`),
    );
    document.body.insertAdjacentHTML('beforeend', markup);
  }
  return page.__violations ?? [];
}

/** How long a violation or a request that is not expected is given to show before it is said not to have come. */
const QUIET_MS = 800;

/**
 * What adding `markup` through `inPage` (the page's `evaluate(watch, …)`) leads to: what `expected`
 * names is waited for (a request or a violation that comes late on a busy machine still counts),
 * then QUIET_MS more for anything it does not name.
 */
export async function probe(
  party: ThirdParty,
  markup: string,
  expected: Seen,
  inPage: (markup: string | null) => Promise<string[]>,
): Promise<Seen> {
  const before = party.hits.length;
  await inPage(markup);
  const seen = async (): Promise<Seen> => ({ violations: await inPage(null), hits: party.hits.slice(before) });
  const covers = (now: Seen) =>
    expected.violations.every((v) => now.violations.includes(v)) && expected.hits.every((h) => now.hits.includes(h));
  const deadline = Date.now() + 30_000;
  while (!covers(await seen()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
  return seen();
}
