// @vitest-environment node
/**
 * Held by the source: pages never write session-scoped
 * storage (they send a message, and the background writes it for the session the page saw), and a
 * background module that writes an item does not also read it outside the writer's turn, where the
 * value could be stale by the time it is written back, unless the read is listed here with why.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as items from '../../utils/storage-items';
import { SESSION_ITEMS } from '../../utils/storage-items';
import { checkoutRoot } from './checkout-root';

const ROOT = checkoutRoot();

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The code of a file without its comments: comments may name the calls, code may not. */
const code = (path: string) => readFileSync(join(ROOT, path), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');

const sessionItemNames = Object.entries(items)
  .filter(([, value]) => (SESSION_ITEMS as readonly unknown[]).includes(value))
  .map(([name]) => name);

describe('who writes storage', () => {
  it('knows the session-scoped items by name', () => {
    expect(sessionItemNames).toEqual(
      expect.arrayContaining(['profileDraftItem', 'draftDiscardedItem', 'rewardsItem', 'ledgerItem']),
    );
  });

  it('no page writes a session-scoped item or storage directly: it sends a message', () => {
    const pages = [
      ...sources('components'),
      ...sources('entrypoints/popup'),
      ...sources('entrypoints/options'),
      'entrypoints/first-frame.ts',
    ];
    const writers = pages.flatMap((path) => {
      const text = code(path);
      const items = [...text.matchAll(/(\w+)\.(?:setValue|removeValue)\(/g)]
        .map((m) => m[1]!)
        .filter((name) => sessionItemNames.includes(name));
      const raw = /storage\(\)\.local\.(?:set|remove|clear)\b|storage\.local\.(?:set|remove|clear)\b/.test(text)
        ? ['storage.local']
        : [];
      return [...items, ...raw].map((what) => `${relative(ROOT, join(ROOT, path))}: ${what}`);
    });
    expect(writers).toEqual([]);
  });

  /**
   * Reads outside a turn of items the same module writes, each checked: its value is never what is
   * written back, or the writer's turn reads the item again.
   */
  const ALLOWED: Record<string, string[]> = {
    // A cache read with its validators to revalidate; its store() is an update() turn, and a 304
    // keeps the copy only when it is the one its validators came with and no write of this worker
    // came since (sync.ts, epochs.ts).
    'entrypoints/background/popup-view.ts': [
      'historyItem',
      'popupViewItem',
      'profileItem',
      'rewardHtmlItem',
      'rewardsItem',
    ],
    // The panel's wait, read only to refuse a call; its write keeps the later of the two in its own turn.
    'entrypoints/background/auth/panel-wait.ts': ['panelWaitItem'],
    // What the page is shown after a save whose re-read failed, and the definitions to check a value against: read only.
    'entrypoints/background/profile/profile.ts': ['profileItem'],
    // Guards before a redeem leaves (an earlier Confirm open, the reward's name and cost) and the
    // "Check now" answer; every Confirm is written by record()'s turn, which reads them again.
    'entrypoints/background/redemption/service.ts': ['ledgerItem', 'settledItem', 'unsettledItem'],
    // The credentials read before a switch, for the account evidence (judged again inside it); the
    // one write drops a refused session's revoked refresh token from what its own turn reads, and
    // only while that is still the token revoked (endRefusedRefreshToken).
    'entrypoints/background/session/session.ts': ['credentialsItem'],
    // Disconnect's mark, read to ask for the password; the value written back is never the one
    // read but `false`, only by a sign-in that did ask, which answers every Disconnect before it
    // (fresh-sign-in.ts).
    'entrypoints/background/session/sign-in.ts': ['freshSignInItem'],
  };

  it('no background module writes an item it read outside the writer’s turn, but those listed with why', () => {
    const found: Record<string, string[]> = {};
    for (const path of sources('entrypoints/background')) {
      if (path.endsWith('store.ts')) continue;
      const text = code(path);
      const read = new Set([...text.matchAll(/(\w+Item)(?:\.head)?\.(?:getValue|readHead)\(/g)].map((m) => m[1]!));
      const written = new Set([...text.matchAll(/put(?:Pages)?\((\w+Item)\b/g)].map((m) => m[1]!));
      const both = [...read].filter((name) => written.has(name)).sort();
      if (both.length > 0) found[path] = both;
    }
    expect(found).toEqual(ALLOWED);
  });
});
