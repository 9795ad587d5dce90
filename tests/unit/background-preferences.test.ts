// @vitest-environment node
import { beforeEach, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { setPreferences } from '../../entrypoints/background/preferences';
import { preferencesItem } from '../../utils/storage-items';

beforeEach(() => fakeBrowser.reset());

it('two preference changes sent at once both stay: each is merged in the writer’s turn, none undoes the other', async () => {
  // Writes land a few milliseconds late, as a real storage's may: every change reads before any lands.
  const local = fakeBrowser.storage.local;
  const set = local.set.bind(local);
  local.set = async (items: Record<string, unknown>) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return set(items);
  };
  const restore = () => void (local.set = set);
  try {
    await Promise.all([
      setPreferences({ badge: false }),
      setPreferences({ refreshMinutes: 60 }),
      setPreferences({ notify: true }),
    ]);
  } finally {
    restore();
  }
  expect(await preferencesItem.getValue()).toMatchObject({ badge: false, refreshMinutes: 60, notify: true });
});
