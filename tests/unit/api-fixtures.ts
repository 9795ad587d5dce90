/**
 * Shared by the API client tests that run against the sandbox over real HTTP: starting it, its
 * control channel (state, faults, recorded requests, reset) and a client pointed at it.
 * One sandbox per test file: vitest gives each file its own copy of this module.
 */
import { createPanelApi, type PanelClient } from '../../utils/api/client';
import { startSandbox, type RecordedRequest, type Sandbox } from '../sandbox/server';

export type Recorded = RecordedRequest;
type ClientConfig = Parameters<typeof createPanelApi>[0];

let current: Sandbox | undefined;

function sandbox(): Sandbox {
  if (!current) throw new Error('start the sandbox first (startApiSandbox in beforeAll)');
  return current;
}

/** Starts the sandbox on a free port; the control helpers and `client` below talk to it. */
export async function startApiSandbox(): Promise<Sandbox> {
  current = await startSandbox({ port: 0 });
  return current;
}

export async function control(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${sandbox().url}/__sandbox${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }),
  });
  if (!response.ok)
    throw new Error(`sandbox control ${method} ${path}: HTTP ${response.status} ${await response.text()}`);
  return response.json();
}

export const resetSandbox = () => control('POST', '/reset');
export const patchState = (patch: Record<string, unknown>) => control('PATCH', '/state', patch);
export const fault = (rule: Record<string, unknown>) => control('POST', '/faults', rule);
export const clearFaults = () => control('DELETE', '/faults');
export const recorded = async () => ((await control('GET', '/requests')) as { requests: Recorded[] }).requests;

/** A client of the sandbox with the sandbox's token, short timeouts and quick retries. */
export function client(overrides: Partial<ClientConfig> = {}): PanelClient {
  return createPanelApi({
    baseUrl: sandbox().url,
    token: sandbox().token,
    timeoutMs: 1000,
    retryBaseDelayMs: 5,
    ...overrides,
  });
}
