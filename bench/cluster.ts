/**
 * 1, 2 and 3 nodes on this machine: service processes sharing one scratch PostgreSQL database (test/helpers/
 * cluster.ts), REST POST /validate sent to every node at once (one wrk per node, the connections split evenly,
 * 10-IBAN bodies, the unlimited key so every request commits a debit in PostgreSQL), and what a request costs in
 * CPU from /proc: the nodes' processes, PostgreSQL's processes (the server is shared, so others' queries count
 * too) and the whole machine, with the load average. On one 2-core machine more nodes cannot add throughput; the
 * figure to read is CPU per request as nodes are added (what a node and its database share cost), not req/s.
 * Short on purpose (2 s warm-up, 8 s measured per setting). Run: `node --import tsx bench/cluster.ts`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { noRegistryContext } from '../src/domain/iban/national/types.js';
import { startCluster } from '../test/helpers/cluster.js';
import { runWrk, type LoadFigures } from './lib/http-load.js';
import { chunks, mixedIbans } from './lib/iban-list.js';
import { wrkPath } from './lib/machine.js';
import { machineCoresBetween, machineCpu, procCpuSeconds } from './lib/proc.js';
import { round } from './lib/results.js';

const settings = {
  nodes: [1, 2, 3],
  connections: 24,
  ibansPerRequest: 10,
  distinctBodies: 100,
  warmupSeconds: 2,
  seconds: 8,
} as const;

/** Every PostgreSQL server process on the machine (comm "postgres"): the server is shared. */
function postgresPids(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
      } catch {
        return false; // exited meanwhile
      }
    })
    .map(Number);
}

function cpuOf(pids: readonly number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      total += procCpuSeconds(pid);
    } catch {
      // a backend that ended within the window: its CPU is lost to the sum (a few ms at most)
    }
  }
  return total;
}

async function loadAll(
  wrk: string,
  ports: readonly number[],
  key: string,
  bodies: string[],
  seconds: number,
) {
  const perNode = Math.ceil(settings.connections / ports.length);
  const target = (port: number) => ({
    port,
    path: '/api/v1/validate',
    headers: { 'x-api-key': key },
    bodies,
  });
  return Promise.all(ports.map((port) => runWrk(wrk, target(port), perNode, seconds)));
}

async function measure(wrk: string, count: number, bodies: string[]) {
  const cluster = await startCluster('bench_cluster', count, { IBANQA_POOL_THREADS: '1' });
  try {
    const ports = cluster.nodes.map((node) => Number(new URL(node.base).port));
    const nodePids = cluster.nodes.map((node) => node.child.pid);
    await loadAll(wrk, ports, cluster.keys.unlimited, bodies, settings.warmupSeconds);
    const pgPids = postgresPids();
    const before = { nodes: cpuOf(nodePids), pg: cpuOf(pgPids), machine: machineCpu() };
    const started = performance.now();
    const runs: LoadFigures[] = await loadAll(
      wrk,
      ports,
      cluster.keys.unlimited,
      bodies,
      settings.seconds,
    );
    const wall = (performance.now() - started) / 1000;
    const requests = runs.reduce((sum, run) => sum + run.requests, 0);
    const machine = machineCoresBetween(before.machine, machineCpu(), wall);
    const us = (seconds: number) => (requests > 0 ? Math.round((seconds * 1e6) / requests) : 0);
    return {
      nodes: count,
      reqPerSec: Math.round(requests / wall),
      perNodeReqPerSec: runs.map((run) => run.reqPerSec),
      p99Ms: Math.max(...runs.map((run) => run.p99Ms)),
      non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
      errors: runs.reduce((sum, run) => sum + run.errors, 0),
      nodesCpuUsPerRequest: us(cpuOf(nodePids) - before.nodes),
      postgresCpuUsPerRequest: us(cpuOf(pgPids) - before.pg),
      machineCpuUsPerRequest: us(machine.busyCores * wall),
      machineBusyCores: machine.busyCores,
      stealCores: machine.stealCores,
      loadAverage: loadavg().map((value) => round(value, 2)),
    };
  } finally {
    await cluster.dispose();
  }
}

const wrk = wrkPath();
if (wrk === null) throw new Error('wrk is needed (apt-get install -y wrk)');
const ibans = mixedIbans(settings.ibansPerRequest * settings.distinctBodies, noRegistryContext);
const bodies = chunks(ibans, settings.ibansPerRequest).map((list) =>
  JSON.stringify({ ibans: list }),
);
console.log(
  `cluster bench: ${JSON.stringify(settings)}; load average before ${loadavg()
    .map((v) => round(v, 2))
    .join(' ')}`,
);
for (const count of settings.nodes) {
  const result = await measure(wrk, count, bodies);
  console.log(JSON.stringify(result));
}
