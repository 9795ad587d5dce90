/**
 * Runs the sandbox for development: `npx tsx tests/sandbox/cli.ts`.
 * SANDBOX_PORT (default 8787) and SANDBOX_TOKEN (default the built-in token) configure it.
 */
import { SANDBOX_TOKEN, startSandbox } from './server';

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

async function main(): Promise<void> {
  const sandbox = await startSandbox({ port: portFromEnv(), token: process.env.SANDBOX_TOKEN || SANDBOX_TOKEN });
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
