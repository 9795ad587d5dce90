/**
 * Runs the sandbox for development: `npm run sandbox` (or `npx tsx tests/sandbox/cli.ts`).
 * SANDBOX_PORT (default 8787) and SANDBOX_TOKEN (default the built-in token) configure it; flags
 * choose how it answers, e.g. to try `npm run doctor` on each kind of panel:
 *   --values=records|map                          shape of the stored values (design §3)
 *   --balance=rewards|variables|stored-variable|none   where the balance is (design §2)
 *   --no-validators                               no ETag / Last-Modified, never a 304
 *   --moved-to=/api | --moved-to=https://…        every API request answered 301 to there
 */
import { parseArgs } from 'node:util';
import { patchState } from './state-patch';
import { loadDefaultSeed, stateFromSeed } from './state';
import { SANDBOX_TOKEN, startSandbox, type SandboxSeed } from './server';

const DEFAULT_PORT = 8787;

function portFromEnv(): number {
  const raw = process.env.SANDBOX_PORT;
  if (raw === undefined || raw === '') return DEFAULT_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`SANDBOX_PORT must be a port number, got "${raw}"`);
  }
  return port;
}

/** The default seed with the flags' switches, checked as PATCH /__sandbox/state checks them; kept across resets. */
function seedFromFlags(): SandboxSeed {
  const { values } = parseArgs({
    options: {
      values: { type: 'string' },
      balance: { type: 'string' },
      'no-validators': { type: 'boolean' },
      'moved-to': { type: 'string' },
    },
  });
  const seed = loadDefaultSeed();
  const switches = {
    ...(values.values ? { valuesShape: values.values } : {}),
    ...(values.balance ? { balanceIn: values.balance } : {}),
    ...(values['no-validators'] ? { validators: false } : {}),
    ...(values['moved-to'] ? { movedTo: values['moved-to'] } : {}),
  };
  const error = patchState(stateFromSeed(seed), switches);
  if (error) throw new Error(error);
  return { ...seed, ...switches } as SandboxSeed;
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({
    port: portFromEnv(),
    token: process.env.SANDBOX_TOKEN || SANDBOX_TOKEN,
    seed: seedFromFlags(),
  });
  console.log(`Sandbox panel API listening on ${sandbox.url}`);
  console.log(`Token: ${sandbox.token}`);
  console.log(`Controls: ${sandbox.url}/__sandbox/{reset,state,faults,requests}`);

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal} received, stopping the sandbox.`);
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
