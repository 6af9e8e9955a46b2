/**
 * State calls a REST front thread makes per keyed request, without and with credit leases, over a real MessagePort
 * to the main thread's LMDB ports: the service's four steps per keyed request (src/service/execute.ts: authenticate,
 * reserve, commit, balance for the X-RateLimit headers), 16 requests in flight, one Business key, one API credit each.
 * Counts every call that crosses the port and the CPU of this process (both ends run here) per request.
 * Run: node --import tsx bench/lease-calls.ts [requests]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { AccountStore } from '../src/accounts/account-store.js';
import { lmdbPorts } from '../src/accounts/lmdb-ports.js';
import { LeasedMeter } from '../src/accounts/meter-leased.js';
import { MeterLeaseLedger } from '../src/accounts/meter-leases.js';
import type { CreditMeter } from '../src/ports/credits.js';
import {
  remoteLeaseLedger,
  remotePorts,
  type RemoteCaller,
} from '../src/ports/remote/remote-ports.js';
import { servePorts } from '../src/ports/remote/serve-ports.js';
import { RpcLink } from '../src/transport/http/threads/rpc.js';

const REQUESTS = Number(process.argv[2] ?? 20_000);
const IN_FLIGHT = 16;

async function run(leased: boolean): Promise<{ calls: Record<string, number>; cpuUs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'ibanqa-lease-calls-'));
  const store = AccountStore.open(dir);
  const local = lmdbPorts(store);
  const { port1, port2 } = new MessageChannel();
  const bug = (thrown: unknown) => {
    throw thrown;
  };
  new RpcLink(port1, servePorts(local, new MeterLeaseLedger(local.ledger)).handlers, bug);
  const link = new RpcLink(port2, {}, bug);
  const calls: Record<string, number> = {};
  const counting: RemoteCaller = {
    call: (port, method, args) => {
      calls[`${port}.${method}`] = (calls[`${port}.${method}`] ?? 0) + 1;
      return link.call(port, method, args);
    },
  };
  const remote = remotePorts(counting);
  const leases = leased ? new LeasedMeter(remoteLeaseLedger(counting), remote.meter) : null;
  const meter: CreditMeter = leases ?? remote.meter;
  const rawKey = store.createKey('business', new Date()).key;
  let next = 0;
  const worker = async () => {
    while (next++ < REQUESTS) {
      const now = new Date();
      const account = await remote.authenticator.authenticate(rawKey, now);
      if (account === null) throw new Error('the key does not authenticate');
      const outcome = await meter.reserve(account, { api_calls: 1 }, now);
      if (!outcome.ok)
        throw new Error('refused: the Business allowance (100,000) is larger than the run');
      await meter.commit(outcome.reservation);
      await meter.balance(account, now);
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

for (const leased of [false, true, false, true]) {
  const { calls, cpuUs } = await run(leased);
  const total = Object.values(calls).reduce((sum, n) => sum + n, 0);
  const perRequest = Object.fromEntries(
    Object.entries(calls).map(([name, n]) => [name, Number((n / REQUESTS).toFixed(3))]),
  );
  console.log(
    JSON.stringify({
      leases: leased,
      requests: REQUESTS,
      callsPerRequest: Number((total / REQUESTS).toFixed(3)),
      cpuUsPerRequest: Number(cpuUs.toFixed(1)),
      perRequest,
    }),
  );
}
