/**
 * In Chromium, the browser itself sends a request again when the keep-alive
 * connection it reused closes before any answer (net/http/http_network_transaction.cc,
 * ShouldResendRequest: a reused connection, no response headers yet, whatever the method). A panel
 * that commits and then drops the connection then sees the Confirm twice. What the extension does:
 * one `Idempotency-Key` per Confirm, which a panel honouring it uses to make one redemption of the
 * two; against a panel that ignores it, the second redemption is found in the history and said.
 * And what it cannot do: no form of the request avoids the re-send, only a new connection does,
 * and `fetch` offers no way to ask for one (the last test shows both).
 */
import { expect, test } from 'vitest';
import type { RecordedRequest } from '../sandbox/server';
import { control, injectFault, serverState } from './control';
import { connectedPerTest, type ExtensionSession } from './harness';

const REDEEM = '/v1/panel/redemption';
const COFFEE = 'Bluefin Coffee $5 Gift Card';

const { start } = connectedPerTest();

async function requests(ext: ExtensionSession, path: string): Promise<RecordedRequest[]> {
  const { requests } = await control<{ requests: RecordedRequest[] }>(ext, '/requests');
  return requests.filter((r) => r.path === path && r.method !== 'OPTIONS');
}

const coffees = async (ext: ExtensionSession) =>
  (await serverState(ext)).redemptions.filter((r) => r.reward.id === 101).length;

test('Chromium re-sends a redeem whose reused connection closed unanswered; with its Idempotency-Key the panel makes one redemption', async () => {
  const ext = await start();
  const before = await coffees(ext);
  // The panel commits, then the connection closes without an answer: Chromium sends it again.
  await injectFault(ext, { path: REDEEM, commit: true, drop: true });
  const popup = await ext.openPage('popup.html');
  await popup.getByRole('button', { name: `Redeem ${COFFEE}` }).click();
  await popup.getByRole('button', { name: `Confirm redeeming ${COFFEE}` }).click();
  await popup.getByText(`Redeemed ${COFFEE}`).waitFor({ timeout: 30_000 });
  const sent = await requests(ext, REDEEM);
  // Two arrived, the browser's own repeat among them, both with the one Confirm's key.
  expect(sent).toHaveLength(2);
  expect(sent[0]!.headers['idempotency-key']).toMatch(/^"[0-9a-f-]{36}"$/);
  expect(sent[1]!.headers['idempotency-key']).toBe(sent[0]!.headers['idempotency-key']);
  expect(await coffees(ext)).toBe(before + 1);
  expect((await serverState(ext)).balance).toBe(2000);
  expect(await popup.getByText(/this redemption twice/).count()).toBe(0);
}, 90_000);

test('a panel that ignores the key records the Confirm twice: the popup and the history say so, with what to do', async () => {
  const ext = await start();
  await control(ext, '/idempotency', 'PATCH', { honour: false });
  await injectFault(ext, { path: REDEEM, commit: true, drop: true });
  const popup = await ext.openPage('popup.html');
  await popup.getByRole('button', { name: `Redeem ${COFFEE}` }).click();
  await popup.getByRole('button', { name: `Confirm redeeming ${COFFEE}` }).click();
  await popup
    .getByText(
      "The panel's history shows this redemption twice, 2 × 500 points. If you did not redeem it again yourself, contact Panel Rewards to reverse one.",
    )
    .waitFor({ timeout: 30_000 });
  expect((await serverState(ext)).balance).toBe(1500);
  const options = await ext.openPage('options.html');
  await options.getByText(`${COFFEE} was recorded more than once`, { exact: true }).waitFor();
  await options.getByText("The panel's history shows this redemption twice", { exact: false }).waitFor();
  await expect.poll(() => options.getByText('Recorded more than once for one confirmation').count()).toBe(2);
}, 90_000);

/** Sends `form` from the extension's worker the way the API client does, on a warmed (reused) or a new connection. */
async function arrivals(
  ext: ExtensionSession,
  form: {
    path: string;
    method: 'GET' | 'POST';
    query?: string;
    body?: string;
    headers?: Record<string, string>;
    keepalive?: boolean;
  },
  connection: 'reused' | 'new',
): Promise<number> {
  await control(ext, '/requests', 'DELETE');
  await injectFault(ext, { path: form.path, method: form.method, commit: true, drop: true });
  if (connection === 'new') await control(ext, '/connections', 'DELETE');
  const sw = await ext.worker();
  await sw.evaluate(
    async ({ base, token, form, warm }) => {
      const init = (extra: RequestInit): RequestInit => ({
        credentials: 'omit',
        cache: 'no-store',
        redirect: 'manual',
        ...extra,
      });
      const auth = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
      // A read first leaves an idle keep-alive connection for the next request to reuse.
      if (warm) await (await fetch(`${base}/v1/panel/rewards`, init({ headers: auth }))).text();
      await fetch(
        `${base}${form.path}${form.query ?? ''}`,
        init({
          method: form.method,
          headers: { ...auth, ...form.headers },
          ...(form.body ? { body: form.body } : {}),
          ...(form.keepalive ? { keepalive: true } : {}),
        }),
      ).catch(() => undefined);
    },
    { base: ext.sandbox.url, token: ext.sandbox.token, form, warm: connection === 'reused' },
  );
  return (await requests(ext, form.path)).filter((r) => r.method === form.method).length;
}

test('no form of the request stops the re-send on a reused connection; a new connection is never re-sent, and fetch cannot ask for one', async () => {
  const ext = await start();
  const redeem = { path: REDEEM, method: 'GET' as const, query: '?id=101', headers: { 'Idempotency-Key': '"probe"' } };
  const seen = {
    // The redeem as the extension sends it (design §1).
    getWithQuery: await arrivals(ext, redeem, 'reused'),
    // The interface document's own form would be a write with a body: re-sent all the same.
    postWithBody: await arrivals(
      ext,
      {
        path: '/v1/panel/variables/data',
        method: 'POST',
        body: '{"FIRST_NAME":"Probe"}',
        headers: { 'Content-Type': 'application/json' },
      },
      'reused',
    ),
    // keepalive only lets a request outlive its page.
    keepalive: await arrivals(ext, { ...redeem, keepalive: true }, 'reused'),
    // A forbidden header: fetch drops it, the connection is reused as before.
    connectionClose: await arrivals(ext, { ...redeem, headers: { ...redeem.headers, Connection: 'close' } }, 'reused'),
    // Only a request that opens its own connection is not re-sent.
    newConnection: await arrivals(ext, redeem, 'new'),
  };
  expect(seen).toEqual({ getWithQuery: 2, postWithBody: 2, keepalive: 2, connectionClose: 2, newConnection: 1 });
}, 90_000);
