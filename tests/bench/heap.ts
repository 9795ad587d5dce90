/**
 * JS heap in use after a forced garbage collection, read over the DevTools protocol: a service
 * worker's own isolate (attached through the browser's session, as Playwright gives no session for a
 * worker) and a page's (its renderer's main isolate: the bench keeps one extension page open at a time).
 */
import type { CDPSession } from 'playwright-core';
import { wakeWorker, workerRunning, type Bench } from './browser';
import { stopWorkers } from './wake';

/** One call inside an attached target, through Target.sendMessageToTarget. */
async function inTarget<R>(browser: CDPSession, sessionId: string, method: string): Promise<R> {
  const id = Math.floor(Math.random() * 1e9);
  return new Promise<R>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${method}: no answer from the worker in 30 s`)), 30_000);
    const listen = (event: { sessionId: string; message: string }) => {
      const message = JSON.parse(event.message) as { id?: number; result?: R; error?: { message: string } };
      if (event.sessionId !== sessionId || message.id !== id) return;
      clearTimeout(timer);
      browser.off('Target.receivedMessageFromTarget', listen);
      if (message.error) reject(new Error(`${method}: ${message.error.message}`));
      else resolve(message.result as R);
    };
    browser.on('Target.receivedMessageFromTarget', listen);
    void browser.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method }) });
  });
}

/** Bytes of JS heap the running worker of extension `id` uses after a forced GC (ours is started if it was stopped). */
export async function workerHeap(bench: Bench, id: string): Promise<number> {
  if (id === bench.extensionId) await bench.worker();
  else if (!(await workerRunning(bench.context, id))) await wakeWorker(bench.context, id, 'page.html');
  const browser = bench.context.browser();
  if (!browser) throw new Error('no browser-level DevTools session to reach the worker through');
  const session = await browser.newBrowserCDPSession();
  try {
    const { targetInfos } = await session.send('Target.getTargets');
    const target = targetInfos.find(
      (t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${id}/`),
    );
    if (!target) throw new Error(`no running service worker for ${id}`);
    // A session of its own that is not flattened: Playwright's CDPSession cannot address a child session.
    const { sessionId } = await session.send('Target.attachToTarget', { targetId: target.targetId, flatten: false });
    await inTarget(session, sessionId, 'HeapProfiler.collectGarbage');
    const { usedSize } = await inTarget<{ usedSize: number }>(session, sessionId, 'Runtime.getHeapUsage');
    await session.send('Target.detachFromTarget', { sessionId });
    return usedSize;
  } finally {
    await session.detach().catch(() => undefined);
  }
}

/** How long a woken worker is left to finish its start-up before its heap is read. */
const SETTLED_MS = 1_000;

/**
 * The worker's heap right after a start: both extensions' workers are stopped, then `wake` (a page's
 * message) starts the one measured, and its heap is read after a forced GC once its start-up is over.
 */
export async function wokenWorkerHeap(bench: Bench, id: string, wake: () => Promise<unknown>): Promise<number> {
  const holder = await bench.context.newPage();
  const cdp = await bench.context.newCDPSession(holder);
  try {
    await cdp.send('ServiceWorker.enable');
    await stopWorkers(cdp);
    await wake();
    // Its start-up work (storage reads, the popup view, the badge) is asynchronous: read once it is done.
    await new Promise((resolve) => setTimeout(resolve, SETTLED_MS));
    return await workerHeap(bench, id);
  } finally {
    await cdp.detach().catch(() => undefined);
    await holder.close();
  }
}
