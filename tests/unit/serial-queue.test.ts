// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { serialQueue } from '../../utils/serial-queue';

/** A promise settled from outside, to hold a work open while the test looks. */
function gate<T = void>() {
  let open!: (value: T) => void;
  let fail!: (error: unknown) => void;
  const promise = new Promise<T>((resolve, reject) => ((open = resolve), (fail = reject)));
  return { promise, open, fail };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('serialQueue', () => {
  it('starts each work only once the one before has settled, in the order queued', async () => {
    const { run } = serialQueue();
    const log: string[] = [];
    const first = gate();
    const a = run(async () => {
      log.push('a starts');
      await first.promise;
      log.push('a ends');
      return 'a';
    });
    const b = run(async () => {
      log.push('b starts');
      return 'b';
    });
    await settle();
    expect(log).toEqual(['a starts']);
    first.open();
    expect(await Promise.all([a, b])).toEqual(['a', 'b']);
    expect(log).toEqual(['a starts', 'a ends', 'b starts']);
  });

  it("rejects only the failing work's own run; the next starts as after a success", async () => {
    const { run } = serialQueue();
    const failing = run(async () => {
      throw new Error('no');
    });
    const thrownSync = run(() => {
      throw new Error('sync');
    });
    const next = run(async () => 'next');
    await expect(failing).rejects.toThrow('no');
    await expect(thrownSync).rejects.toThrow('sync');
    expect(await next).toBe('next');
  });

  it('idle waits for everything queued so far, resolves after a failure, and does not wait for later work', async () => {
    const queue = serialQueue();
    const held = gate();
    const failing = queue.run(async () => {
      await held.promise;
      throw new Error('no');
    });
    failing.catch(() => undefined);
    let idle = false;
    const waiting = queue.idle().then(() => (idle = true));
    await settle();
    expect(idle).toBe(false);
    held.open();
    await waiting;
    expect(idle).toBe(true);
    const later = gate();
    void queue.run(() => later.promise);
    // idle() taken before `later` was queued already resolved; a new one waits for it.
    let idleAgain = false;
    void queue.idle().then(() => (idleAgain = true));
    await settle();
    expect(idleAgain).toBe(false);
    later.open();
    await settle();
    expect(idleAgain).toBe(true);
  });

  it('queues are independent of each other', async () => {
    const one = serialQueue();
    const two = serialQueue();
    const held = gate();
    void one.run(() => held.promise);
    expect(await two.run(async () => 'free')).toBe('free');
    held.open();
  });
});
