/**
 * Reward images on a host off the open internet are never loaded, however the host is spelled
 * (utils/hosts.ts), in real Chromium. Chromium resolves `localhost.` and `router.localhost.` (a
 * name with its trailing dot) to this machine itself: a catalogue naming them would make the popup
 * knock on the panelist's own ports. A TCP listener on 127.0.0.1 stands for whatever runs there: it
 * counts connections, so it sees an `https://` image request before any TLS is spoken.
 */
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { E2E_SANDBOX_PORT } from './config';
import { launchExtension, type ExtensionSession } from './harness';

let sandbox: Sandbox;
let ext: ExtensionSession;
let listener: Server;
let port = 0;
/** Connections that reached this machine's port. */
let connections = 0;

/** Hosts spelled so that only a canonical form tells they are this machine. */
const SPELLINGS = ['localhost.', 'router.localhost.', 'LOCALHOST..', '127.0.0.1..', '0x7f.1..'];

beforeAll(async () => {
  listener = createServer((socket) => {
    connections += 1;
    socket.on('error', () => undefined);
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as AddressInfo).port;

  sandbox = await startSandbox({ port: E2E_SANDBOX_PORT });
  sandbox.state.rewards = sandbox.state.rewards.map((reward, i) => {
    const host = SPELLINGS[i % SPELLINGS.length]!;
    const url = `https://${host}:${port}/card-${reward.id}.png`;
    return {
      ...reward,
      image_url: url,
      meta_data: {
        ...reward.meta_data,
        image_url: url,
        image_urls: { '80w-326ppi': url, '300w-326ppi': url },
      },
    };
  });
  ext = await launchExtension({ sandbox, connect: true });
});
afterAll(async () => {
  await ext?.close();
  await sandbox?.close();
  await new Promise<void>((resolve) => listener?.close(() => resolve()));
});

test('a reward image on localhost., router.localhost. or another spelling of this machine is never requested', async () => {
  const popup = await ext.openPage('popup.html');
  await expect.poll(() => popup.locator('.reward-img').count()).toBeGreaterThan(0);
  // Give a request the time to arrive (a refused image turns into its brand tile at once, so the
  // listener is the witness, not the page), then check that none did.
  await popup.waitForTimeout(1500);
  expect(connections, 'connections to this machine from the popup').toBe(0);
  const sources = await popup
    .locator('img')
    .evaluateAll((nodes) => nodes.map((n) => [(n as HTMLImageElement).src, (n as HTMLImageElement).srcset].join(' ')));
  expect(sources.filter((s) => s.includes(`:${port}/`))).toEqual([]);
  // What was stored carries no such address either: the rule holds where the answer is read.
  const stored = await (
    await ext.worker()
  ).evaluate(async () => JSON.stringify(await chrome.storage.local.get(['cache:rewards', 'view:popup'])));
  expect(stored).toContain('"cache:rewards"');
  expect(stored).not.toContain(`:${port}/`);

  // The listener would have seen one: the same address put in the page by hand is requested.
  await popup.evaluate((src) => {
    const probe = new Image();
    probe.src = src;
    document.body.append(probe);
  }, `https://localhost.:${port}/probe.png`);
  await expect.poll(() => connections).toBeGreaterThan(0);
});
