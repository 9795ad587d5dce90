import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { definePagedItem, PAGE_ENTRIES } from '../../utils/paged-item';

const item = definePagedItem<number>('test:list', (list) => [...list].sort((a, b) => b - a));
const keys = async () => Object.keys(await fakeBrowser.storage.local.get(null)).sort();

beforeEach(() => fakeBrowser.reset());

describe('a list kept in pages', () => {
  it('is written in pages of a fixed size, in its order, and read back whole', async () => {
    const list = Array.from({ length: 2 * PAGE_ENTRIES + 5 }, (_, i) => i);
    await item.setValue({ data: list, fetchedAt: 7 });
    expect(await keys()).toEqual(['test:list', 'test:list:0', 'test:list:1', 'test:list:2']);
    expect(await fakeBrowser.storage.local.get('test:list')).toEqual({
      'test:list': { fetchedAt: 7, total: list.length, pages: 3 },
    });
    const back = await item.getValue();
    expect(back?.fetchedAt).toBe(7);
    expect(back?.data).toEqual([...list].reverse());
  });

  it('reads a slice from the pages that hold it', async () => {
    await item.setValue({ data: Array.from({ length: 350 }, (_, i) => i), fetchedAt: 1 });
    const head = (await item.readHead())!;
    expect(await item.readEntries(head, 95, 10)).toEqual([254, 253, 252, 251, 250, 249, 248, 247, 246, 245]);
    expect(await item.readEntries(head, 340, 50)).toHaveLength(10);
  });

  it('a shorter copy leaves no page of the longer one; removing takes every page', async () => {
    await item.setValue({ data: Array.from({ length: 250 }, (_, i) => i), fetchedAt: 1 });
    await item.setValue({ data: [1, 2], fetchedAt: 2 });
    expect(await keys()).toEqual(['test:list', 'test:list:0']);
    await item.removeValue();
    expect(await keys()).toEqual([]);
    expect(await item.getValue()).toBeNull();
  });

  it('a list stored whole before pages still reads', async () => {
    await fakeBrowser.storage.local.set({ 'test:list': { data: [3, 1, 2], fetchedAt: 5 } });
    expect(await item.getValue()).toEqual({ data: [3, 1, 2], fetchedAt: 5 });
    expect(item.fromStored({ data: [3], fetchedAt: 5 })).toEqual({ data: [3], fetchedAt: 5 });
  });

  it('watchers get each new copy whole, the latest last', async () => {
    const seen: Array<number[] | undefined> = [];
    const stop = item.watch((value) => seen.push(value?.data));
    await item.setValue({ data: [1], fetchedAt: 1 });
    await item.setValue({ data: [1, 2], fetchedAt: 2 });
    await expect.poll(() => seen.at(-1)).toEqual([2, 1]);
    stop();
  });
});
