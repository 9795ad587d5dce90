import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { defineItem, preload } from '../../utils/storage-item';

beforeEach(() => fakeBrowser.reset());

describe('storage items', () => {
  it('read the fallback until set, and again once removed; watchers see each change', async () => {
    const item = defineItem<{ n: number }>('test:item', { n: 0 });
    const seen: number[] = [];
    const stop = item.watch((v) => seen.push(v.n));
    expect(await item.getValue()).toEqual({ n: 0 });
    await item.setValue({ n: 2 });
    expect(await item.getValue()).toEqual({ n: 2 });
    await item.removeValue();
    stop();
    await item.setValue({ n: 3 });
    expect(seen).toEqual([2, 0]);
  });

  it('preload reads several items in one go, and peek stays current afterwards', async () => {
    const a = defineItem('test:a', 'fallback');
    const b = defineItem<number | null>('test:b', null);
    const c = defineItem('test:c', 'never preloaded');
    await a.setValue('stored');
    expect(a.peek()).toBeUndefined();
    await preload([a, b]);
    expect(a.peek()).toBe('stored');
    expect(b.peek()).toBeNull();
    expect(c.peek()).toBeUndefined();
    await b.setValue(7);
    expect(b.peek()).toBe(7);
  });
});
