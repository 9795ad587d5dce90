// @vitest-environment node
import { beforeEach, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { setPreferences } from '../../entrypoints/background/preferences';
import { preferencesItem } from '../../utils/storage-items';
import { slowReads } from './background-helpers';

beforeEach(() => fakeBrowser.reset());

it('two preference changes sent at once both stay: each is merged in the writer’s turn, none undoes the other', async () => {
  const restore = slowReads(5);
  try {
    await Promise.all([setPreferences({ badge: false }), setPreferences({ refreshMinutes: 60 }), setPreferences({ notify: true })]);
  } finally {
    restore();
  }
  expect(await preferencesItem.getValue()).toMatchObject({ badge: false, refreshMinutes: 60, notify: true });
});
