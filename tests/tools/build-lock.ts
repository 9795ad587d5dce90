/**
 * One `wxt build` at a time in this checkout, across the test run's worker processes. Every build
 * rewrites `.wxt/tsconfig.json`, whose `exclude` names the build's own folder, and reads it back:
 * two builds into different folders at once (two lanes, or a lane and the API audit) read each
 * other's half-written file and fail with "Failed to load tsconfig … trailing characters".
 *
 * The lock is a folder (made atomically) holding the holder's pid; a holder that died is replaced.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const LOCK = '.output/wxt-build.lock';
const POLL_MS = 100;

/** Takes the lock if free (or left by a dead process); the release function when taken, else null. */
function tryLock(): (() => void) | null {
  mkdirSync('.output', { recursive: true });
  try {
    mkdirSync(LOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if (holderAlive()) return null;
    rmSync(LOCK, { recursive: true, force: true });
    return tryLock();
  }
  writeFileSync(`${LOCK}/pid`, String(process.pid));
  return () => rmSync(LOCK, { recursive: true, force: true });
}

function holderAlive(): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(`${LOCK}/pid`, 'utf8'));
  } catch {
    // Made and not yet signed: its maker is alive, a moment away from writing its pid.
    return true;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Runs `build` holding the lock, blocking this thread while another process builds. */
export function withBuildLock<T>(build: () => T): T {
  let release = tryLock();
  while (!release) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, POLL_MS);
    release = tryLock();
  }
  try {
    return build();
  } finally {
    release();
  }
}

/** The same without blocking: for a build that reads a server this process runs. */
export async function withBuildLockAsync<T>(build: () => Promise<T>): Promise<T> {
  let release = tryLock();
  while (!release) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    release = tryLock();
  }
  try {
    return await build();
  } finally {
    release();
  }
}
