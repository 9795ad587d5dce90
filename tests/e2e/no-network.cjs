/**
 * Loaded into every Node process of a test run (NODE_OPTIONS=--require …/no-network.cjs): any
 * attempt to reach a host other than this machine is written to NO_NETWORK_LOG and fails at once,
 * before a packet leaves. A test then proves a command reached no store by an empty log, and that
 * the guard works by a log that is not empty when something does try (tests/e2e/release.test.ts).
 * It sits below every client: fetch (undici), https, and publish-browser-extension all open their
 * sockets through net.Socket, and resolve names through dns.lookup.
 */
'use strict';
const dns = require('node:dns');
const fs = require('node:fs');
const net = require('node:net');

const LOCAL = new Set(['localhost', '127.0.0.1', '::1', '', undefined]);
const log = process.env.NO_NETWORK_LOG;

function refuse(what) {
  if (log) fs.appendFileSync(log, `${process.pid} ${what}\n`);
  const error = new Error(`no-network: ${what} refused (this test reaches no host but this machine)`);
  error.code = 'ENETUNREACH';
  return error;
}

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const options = typeof first === 'object' && first !== null ? first : { port: first, host: args[1] };
  // A Unix socket or a pipe (esbuild, a worker) never leaves the machine.
  if (options.path === undefined && !LOCAL.has(options.host)) {
    const error = refuse(`connect ${options.host}:${options.port}`);
    process.nextTick(() => this.destroy(error));
    return this;
  }
  return connect.apply(this, args);
};

const lookup = dns.lookup;
dns.lookup = function guardedLookup(host, ...rest) {
  const callback = rest.at(-1);
  if (!LOCAL.has(host) && typeof callback === 'function') {
    const error = refuse(`lookup ${host}`);
    process.nextTick(() => callback(error));
    return {};
  }
  return lookup.call(this, host, ...rest);
};
const lookupPromise = dns.promises.lookup;
dns.promises.lookup = async function guardedLookupPromise(host, ...rest) {
  if (!LOCAL.has(host)) throw refuse(`lookup ${host}`);
  return lookupPromise.call(this, host, ...rest);
};
