/**
 * Waits in a Firefox popup for what the goal's pace line stands on, and for the line, so that a
 * wait that ends without it names what was missing instead of only "timed out".
 *
 * The pace is said only once the history has been read (the view's `returns`: a rise in the balance
 * may be a refund until then) and the balance samples span some earning (components/popup/model/
 * goal-model.ts). Each wait reports, at its deadline, the goal card and the header as shown, whether
 * the view holds the returns, the history's last sync state and the samples stored.
 */
import type { Page } from 'puppeteer-core';

// The house's one deadline (tests/e2e/README.md): a busy machine is given it, never a shorter wait.
const WAIT_MS = 30_000;

interface PaceEvidence {
  pace: string | null;
  goal: string | null;
  header: string | null;
  returnsRead: boolean;
  historySync: unknown;
  samples: unknown;
}

/** Runs in the popup: the goal card, the header, and what the background has stored for them. */
async function paceEvidence(): Promise<PaceEvidence> {
  const api = ((globalThis as { browser?: typeof chrome }).browser ?? chrome).storage.local;
  const stored = await api.get(['view:popup', 'sync', 'balance:history']);
  const view = stored['view:popup'] as { returns?: unknown } | null | undefined;
  const text = (selector: string) => document.querySelector<HTMLElement>(selector)?.innerText ?? null;
  return {
    pace: text('.goal .goal-pace'),
    goal: text('.goal'),
    header: text('header'),
    returnsRead: Array.isArray(view?.returns),
    historySync: (stored.sync as { history?: unknown } | undefined)?.history ?? null,
    samples: stored['balance:history'] ?? null,
  };
}

async function waitUntil(page: Page, what: string, done: (e: PaceEvidence) => boolean): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const evidence = await page.evaluate(paceEvidence);
    if (done(evidence)) return;
    if (Date.now() > deadline)
      throw new Error(`${what} within ${WAIT_MS} ms; the popup had:\n${JSON.stringify(evidence, null, 2)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Until the background's view holds the history's returns: the pace's first condition. */
export function historyReadIn(page: Page): Promise<void> {
  return waitUntil(page, 'the history was not read', (e) => e.returnsRead);
}

/** Until the goal card shows its pace line. */
export function goalPaceIn(page: Page): Promise<void> {
  return waitUntil(page, 'the goal card showed no pace line', (e) => !!e.pace);
}
