import { describe, expect, it } from 'vitest';
import { settings } from '../../utils/settings';
import { sessionItem } from '../../utils/storage-items';

describe('smoke', () => {
  it('has settings and fake storage', async () => {
    expect(settings.panelName).toBeTruthy();
    expect((await sessionItem.getValue()).connected).toBe(false);
  });
});
