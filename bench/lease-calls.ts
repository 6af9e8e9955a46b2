/**
 * State calls a REST front thread makes per keyed request over a real MessagePort to the main thread's LMDB ports:
 * the service's four steps per keyed request (src/service/execute.ts: authenticate, reserve, commit, balance for the
 * X-RateLimit headers), 16 requests in flight, one Business key, one API credit each, in three set-ups:
 * - `remote`: every step a call;
 * - `leases`: reserve and commit from credit leases (a spend per turn, a grant per top-up), authenticate and
 *   balance still calls;
 * - `fronts`: what a front thread runs now: leases, the key cache answered by the main thread's
 *   (src/accounts/auth-cache.ts), the balance from what the lease replies carry (src/accounts/pushed-balances.ts).
 * Counts every call that crosses the port and the CPU of this process (both ends run here) per request. Then the
 * main thread's own authenticate, from the store (a SHA-256 per call) and through its key cache, CPU per call.
 * Run: node --import tsx bench/lease-calls.ts [requests]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { AccountStore } from '../src/accounts/account-store.js';
import { lmdbPorts } from '../src/accounts/lmdb-ports.js';
import { AuthCache } from '../src/accounts/auth-cache.js';
import { LeasedMeter } from '../src/accounts/meter-leased.js';
import { heldBalanceOf, PushedBalances } from '../src/accounts/pushed-balances.js';
import type { Authenticator } from '../src/ports/accounts.js';
import type { CreditMeter } from '../src/ports/credits.js';
import {
  remoteKeyResolver,
  remoteLeaseLedger,
  remotePorts,
  type RemoteCaller,
} from '../src/ports/remote/remote-ports.js';
import { servePorts } from '../src/ports/remote/serve-ports.js';
import { RpcLink } from '../src/transport/http/threads/rpc.js';

const REQUESTS = Number(process.argv[2] ?? 20_000);
const IN_FLIGHT = 16;

type Mode = 'remote' | 'leases' | 'fronts';

/** The front thread's authenticator and meter for a mode, over the counted link. */
function frontSide(mode: Mode, counting: RemoteCaller) {
  const remote = remotePorts(counting);
  if (mode === 'remote')
    return { authenticator: remote.authenticator, meter: remote.meter, leases: null };
  if (mode === 'leases') {
    const leases = new LeasedMeter(remoteLeaseLedger(counting), remote.meter);
    return { authenticator: remote.authenticator, meter: leases, leases };
  }
  const resolver = remoteKeyResolver(counting);
  const authenticator: Authenticator = new AuthCache(
    (rawKey, now) => resolver.resolve(rawKey, now),
    (id) => remote.authenticator.accountById(id),
  );
  const balances = new PushedBalances(remote.meter);
  // As workers/front.ts builds it: answers read the balances the lease replies carried.
  const leases = new LeasedMeter(
    remoteLeaseLedger(counting, (notes) => balances.record(notes.map(heldBalanceOf))),
    remote.meter,
    { notes: balances, onCharged: (accountId, at) => balances.charged(accountId, at) },
  );
  return { authenticator, meter: leases, leases };
}

async function run(mode: Mode): Promise<{ calls: Record<string, number>; cpuUs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'ibanqa-lease-calls-'));
  const store = AccountStore.open(dir);
  const local = lmdbPorts(store);
  const { port1, port2 } = new MessageChannel();
  const bug = (thrown: unknown) => {
    throw thrown;
  };
  const mainKeys = AuthCache.over(local.authenticator);
  new RpcLink(port1, servePorts(local, local.leaseLedger, mainKeys).handlers, bug);
  const link = new RpcLink(port2, {}, bug);
  const calls: Record<string, number> = {};
  const counting: RemoteCaller = {
    call: (port, method, args) => {
      calls[`${port}.${method}`] = (calls[`${port}.${method}`] ?? 0) + 1;
      return link.call(port, method, args);
    },
  };
  const { authenticator, meter, leases } = frontSide(mode, counting);
  const rawKey = store.createKey('business', new Date()).key;
  let next = 0;
  const worker = async () => {
    while (next++ < REQUESTS) {
      const now = new Date();
      const account = await authenticator.authenticate(rawKey, now);
      if (account === null) throw new Error('the key does not authenticate');
      const outcome = await meter.reserve(account, { api_calls: 1 }, now);
      if (!outcome.ok)
        throw new Error('refused: the Business allowance (100,000) is larger than the run');
      await meter.commit(outcome.reservation);
      // The balance an answer states, as src/service/execute.ts reads it.
      const answering = meter as CreditMeter;
      await (answering.answerBalance?.(account, now) ?? answering.balance(account, now));
    }
  };
  const before = process.cpuUsage();
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const used = process.cpuUsage(before);
  await leases?.close();
  port1.close();
  await local.flush();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return { calls, cpuUs: (used.user + used.system) / REQUESTS };
}

/** The main thread's authenticate per call: the store's (SHA-256, then its own cache) and the key cache's. */
async function mainThreadAuthenticate(): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'ibanqa-lease-calls-'));
  const store = AccountStore.open(dir);
  const local = lmdbPorts(store);
  const rawKey = store.createKey('business', new Date()).key;
  const cpuPerCall = async (authenticator: Authenticator) => {
    await authenticator.authenticate(rawKey, new Date());
    const before = process.cpuUsage();
    for (let i = 0; i < REQUESTS; i++) await authenticator.authenticate(rawKey, new Date());
    const used = process.cpuUsage(before);
    return Number(((used.user + used.system) / REQUESTS).toFixed(2));
  };
  const result = {
    storeCpuUsPerCall: await cpuPerCall(local.authenticator),
    cacheCpuUsPerCall: await cpuPerCall(AuthCache.over(local.authenticator)),
  };
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return result;
}

for (const mode of ['remote', 'leases', 'fronts', 'remote', 'leases', 'fronts'] as const) {
  const { calls, cpuUs } = await run(mode);
  const total = Object.values(calls).reduce((sum, n) => sum + n, 0);
  const perRequest = Object.fromEntries(
    Object.entries(calls).map(([name, n]) => [name, Number((n / REQUESTS).toFixed(3))]),
  );
  console.log(
    JSON.stringify({
      mode,
      requests: REQUESTS,
      callsPerRequest: Number((total / REQUESTS).toFixed(3)),
      cpuUsPerRequest: Number(cpuUs.toFixed(1)),
      perRequest,
    }),
  );
}
console.log(JSON.stringify({ mainThreadAuthenticate: await mainThreadAuthenticate() }));
