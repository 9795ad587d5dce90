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

/**
 * Runs in an extension page (Playwright's or puppeteer's `evaluate(addAndWatch, markup)`): adds
 * `markup` to the page and returns the content security policy violations that follow, as
 * "directive /path".
 */
export async function addAndWatch(markup: string): Promise<string[]> {
  const seen: string[] = [];
  document.addEventListener('securitypolicyviolation', (e) =>
    seen.push(`${e.violatedDirective} ${new URL(e.blockedURI).pathname}`),
  );
  document.body.insertAdjacentHTML('beforeend', markup);
  await new Promise((resolve) => setTimeout(resolve, 800));
  return seen;
}

/** The violations `add` reports and the requests that reached `party` meanwhile. */
export async function probe(
  party: ThirdParty,
  add: () => Promise<string[]>,
): Promise<{ violations: string[]; hits: string[] }> {
  const before = party.hits.length;
  const violations = await add();
  return { violations, hits: party.hits.slice(before) };
}
