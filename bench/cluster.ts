/**
 * 1, 2 and 3 nodes on this machine: service processes sharing one scratch PostgreSQL database (test/helpers/
 * cluster.ts), REST POST /validate sent to every node at once (one wrk per node, the connections split evenly,
 * 10-IBAN bodies, the unlimited key so every request commits a debit in PostgreSQL), and what a request costs in
 * CPU from /proc: the nodes' processes, PostgreSQL's processes (the server is shared, so others' queries count
 * too) and the whole machine, with the load average. On one 2-core machine more nodes cannot add throughput; the
 * figure to read is CPU per request as nodes are added (what a node and its database share cost), not req/s.
 * Short on purpose (2 s warm-up, 8 s measured per setting). Run: `node --import tsx bench/cluster.ts`; prints
 * one line per setting and writes them all to bench/results/cluster.json.
 */
import { loadavg } from 'node:os';
import { noRegistryContext } from '../src/domain/iban/national/types.js';
import { createKeyThroughCli, startCluster } from '../test/helpers/cluster.js';
import { runWrk, type LoadFigures } from './lib/http-load.js';
import { chunks, mixedIbans } from './lib/iban-list.js';
import { wrkPath } from './lib/machine.js';
import { cpuBetween, cpuOf, postgresPids } from './lib/postgres-cpu.js';
import { machineCoresBetween, machineCpu } from './lib/proc.js';
import { round, writeResult } from './lib/results.js';

/**
 * Keys: `shared`, every node on the unlimited demo key (one credit_usage row, which every node's settlement
 * updates); `per-node`, each node on an unlimited key of its own (created with `ibanqa keys create`), so the rows
 * differ and only the server and the machine are shared. The two show what the shared row costs.
 */
const keyModes = ['shared', 'per-node'] as const;
type KeyMode = (typeof keyModes)[number];

const settings = {
  nodes: [1, 2, 3],
  connections: 24,
  ibansPerRequest: 10,
  distinctBodies: 100,
  warmupSeconds: 2,
  seconds: 8,
} as const;

/** One wrk per node at once, the connections split evenly; node i is sent keys[i]. */
async function loadAll(
  wrk: string,
  ports: readonly number[],
  keys: readonly string[],
  bodies: string[],
  seconds: number,
) {
  const perNode = Math.ceil(settings.connections / ports.length);
  const target = (port: number, key: string) => ({
    port,
    path: '/api/v1/validate',
    headers: { 'x-api-key': key },
    bodies,
  });
  return Promise.all(
    ports.map((port, i) => runWrk(wrk, target(port, keys[i] as string), perNode, seconds)),
  );
}

async function measure(wrk: string, count: number, mode: KeyMode, bodies: string[]) {
  const cluster = await startCluster('bench_cluster', count, { IBANQA_POOL_THREADS: '1' });
  try {
    const ports = cluster.nodes.map((node) => Number(new URL(node.base).port));
    const nodePids = cluster.nodes.map((node) => node.child.pid);
    const keys =
      mode === 'shared'
        ? ports.map(() => cluster.keys.unlimited)
        : [
            cluster.keys.unlimited,
            ...(await Promise.all(
              ports.slice(1).map(() => createKeyThroughCli(cluster.database.url, 'unlimited')),
            )),
          ];
    await loadAll(wrk, ports, keys, bodies, settings.warmupSeconds);
    const before = { nodes: cpuOf(nodePids), pg: cpuOf(postgresPids()), machine: machineCpu() };
    const started = performance.now();
    const runs: LoadFigures[] = await loadAll(wrk, ports, keys, bodies, settings.seconds);
    const wall = (performance.now() - started) / 1000;
    const requests = runs.reduce((sum, run) => sum + run.requests, 0);
    // Every answer must be a 200 with its debit committed, or the figures price something else.
    if (runs.some((run) => run.non2xx > 0 || run.errors > 0))
      throw new Error(`answers that were not 200: ${JSON.stringify(runs)}`);
    const machine = machineCoresBetween(before.machine, machineCpu(), wall);
    const us = (seconds: number) => (requests > 0 ? Math.round((seconds * 1e6) / requests) : 0);
    return {
      nodes: count,
      keys: mode,
      reqPerSec: Math.round(requests / wall),
      perNodeReqPerSec: runs.map((run) => run.reqPerSec),
      p99Ms: Math.max(...runs.map((run) => run.p99Ms)),
      non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
      errors: runs.reduce((sum, run) => sum + run.errors, 0),
      nodesCpuUsPerRequest: us(cpuBetween(before.nodes, cpuOf(nodePids))),
      postgresCpuUsPerRequest: us(cpuBetween(before.pg, cpuOf(postgresPids()))),
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
const loadAverageAtStart = loadavg().map((v) => round(v, 2));
console.log(
  `cluster bench: ${JSON.stringify(settings)}; load average before ${loadAverageAtStart.join(' ')}`,
);
const runs: Awaited<ReturnType<typeof measure>>[] = [];
for (const mode of keyModes) {
  for (const count of settings.nodes) {
    if (mode === 'per-node' && count === 1) continue; // the same as shared
    const run = await measure(wrk, count, mode, bodies);
    console.log(JSON.stringify(run));
    runs.push(run);
  }
}
console.log(`wrote ${writeResult('cluster', { settings, loadAverageAtStart, runs })}`);
