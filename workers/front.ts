/**
 * A REST front thread (IBANQA_HTTP_THREADS > 1): the same routes as the main thread's app (buildApp),
 * listening on the same host:port. Its Service holds the read-only data (bank, routing, registry opened
 * read-only, as pool workers do) and remote state ports over the main thread's. A warm keyed request makes no
 * call to the main thread: its key is in this thread's key cache (src/accounts/auth-cache.ts, told of revocations
 * by the main thread), its credits come from leases of the main thread's ledger (one spend per batch, one grant
 * per top-up), and its X-RateLimit headers from the balance those replies carry (src/accounts/
 * pushed-balances.ts). Ops that run on the main thread go there whole (`service.answer`); pool-sized runs go to
 * the main thread's pool (`pool.run`).
 */
import { parentPort, threadId } from 'node:worker_threads';
import { frontPolicies } from '../src/config.js';
import { countryFormats } from '../src/domain/iban/countries.js';
import { frontThreadLimits } from '../src/limits.js';
import { createLogger } from '../src/logger.js';
import { installCrashGuards } from '../src/process-guard.js';
import { compileInputValidator } from '../src/ops/framework/input-validation.js';
import { isHttpOp } from '../src/contract/op.js';
import { ops } from '../src/ops/table.js';
import {
  remoteKeyResolver,
  remoteLeaseLedger,
  remotePorts,
} from '../src/ports/remote/remote-ports.js';
import { keyChangesPort } from '../src/ports/remote/wire.js';
import { AuthCache } from '../src/accounts/auth-cache.js';
import { LeasedMeter } from '../src/accounts/meter-leased.js';
import { heldBalanceOf, PushedBalances } from '../src/accounts/pushed-balances.js';
import { LmdbDirectory } from '../src/registry/lmdb-directory.js';
import {
  lazyRoutingDirectory,
  loadRoutingDirectory,
} from '../src/registry/routing-directory-loader.js';
import { RegistryStore } from '../src/registry/store/registry-store.js';
import { RenderedBody } from '../src/render/body.js';
import { Service, type Runner } from '../src/service/execute.js';
import { HttpMetrics, type RequestCounts } from '../src/transport/http/metrics.js';
import {
  buildApp,
  listen,
  serviceCalls,
  type HttpAnswer,
  type HttpCalls,
  type HttpFront,
} from '../src/transport/http/server.js';
import { RpcLink, type Channel } from '../src/transport/http/threads/rpc.js';
import {
  frontThreadSettings,
  type WirePoolResult,
} from '../src/transport/http/threads/settings.js';
import { buildOpenApi } from '../src/transport/openapi/document.js';
import { statusObserverFor } from '../src/transport/observed-statuses.js';
import type { Logger } from 'pino';

const settings = frontThreadSettings();
const logger: Logger = createLogger(settings.logLevel as 'info').child({ thread: settings.thread });

let ready = false;
let inFlight = 0;
let front: HttpFront | undefined;
const metrics = new HttpMetrics({ thread: settings.thread, processMetrics: false });

/** Stops taking connections, lets calls in flight settle (bounded), then closes the connections still open. */
async function stop(): Promise<void> {
  ready = false;
  front?.close();
  const deadline = Date.now() + frontThreadLimits.drainMs;
  while (inFlight > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 10));
  // TemplatedApp.close() exists at runtime but not in the typings (notes/stack.md §2).
  (app as unknown as { close?: () => void }).close?.();
  // Spends recorded, unspent leased credits back in the main thread's ledger before the thread exits.
  await meter
    .close()
    .catch((error: unknown) => logger.warn({ err: error }, 'credit leases not returned'));
}

const link = new RpcLink(
  parentPort as unknown as Channel,
  {
    front: {
      ready: (value: boolean) => {
        ready = value;
      },
      stop,
    },
    metrics: { counts: (): Promise<RequestCounts> => metrics.counts() },
    // Declared before the cache exists: the main thread posts only once this thread listens.
    [keyChangesPort]: { forget: (keyId: string) => keys.forget(keyId) },
  },
  (thrown, port, method) =>
    logger.error(
      { err: thrown, call: `${port}.${method}` },
      'internal error in a front thread call',
    ),
);
metrics.renderRemotely(() => link.call<string>('metrics', 'render'));

const registry = RegistryStore.openReader(settings.dataDir);
const bank = new LmdbDirectory(registry);
// Before listening, as the main thread does: the first validate would otherwise build the maps on demand.
bank.preload(countryFormats.map((format) => format.code));
const routing = lazyRoutingDirectory(() =>
  loadRoutingDirectory(settings.usDirectoryFiles, registry),
);

/** Pool-sized runs go to the main thread's pool: one pool per process, sized once. */
const runner: Runner = {
  async runInPool(task) {
    const result = await link.call<WirePoolResult>('pool', 'run', [{ ...task, op: task.op.name }]);
    return 'rendered' in result
      ? new RenderedBody(result.rendered.format, result.rendered.body)
      : result.value;
  },
};

const remote = remotePorts(link);
const resolver = remoteKeyResolver(link);
const keys = new AuthCache(
  (rawKey, now) => resolver.resolve(rawKey, now),
  (id) => remote.authenticator.accountById(id),
);
const balances = new PushedBalances(remote.meter);
// Keyed requests reserve from leases of the main thread's ledger: no call to the main thread per reservation, one
// spend per batch (src/accounts/meter-leased.ts); the replies bring the balances the headers read (GET /usage
// reads the main thread's ledger itself).
const meter = new LeasedMeter(
  remoteLeaseLedger(link, (notes) => balances.record(notes.map(heldBalanceOf))),
  remote.meter,
  {
    onError: (error) => logger.warn({ err: error }, 'credit lease renewal failed'),
    notes: balances,
    onCharged: (accountId, at) => balances.charged(accountId, at),
  },
);
void meter
  .start()
  .catch((error: unknown) => logger.warn({ err: error }, 'credit lease sweep failed'));

const service = new Service({
  state: { ...remote, authenticator: keys, meter, flush: () => meter.flush() },
  data: { bank, routing, registry },
  runner,
  poolThresholdRows: settings.poolThresholdRows,
  validators: new Map(ops.map((op) => [op.name, compileInputValidator(op)])),
  manifestKeys: settings.manifestKeys,
});
const local = serviceCalls(service);

/** Ops of 'any' placement run here; ops that must run on the main thread are answered there, whole. */
const calls: HttpCalls = {
  async answer(op, raw, identity) {
    inFlight++;
    try {
      return op.runsOn === 'main'
        ? await link.call<HttpAnswer>('service', 'answer', [op.name, raw, identity])
        : await local.answer(op, raw, identity);
    } finally {
      inFlight--;
    }
  },
};

const httpOps = ops.filter(isHttpOp);
const openapi = buildOpenApi(httpOps);
const app = buildApp({
  service,
  calls,
  ops: httpOps,
  openapi: () => openapi,
  logger,
  metrics,
  isReady: () => ready,
  registryIdentity: () => registry.currentIdentity(),
  ...frontPolicies(settings.front),
  observer: statusObserverFor(settings.front.observedStatusesDir),
});

listen(app, settings.host, settings.port, 'shared').then(
  (listening) => {
    front = listening;
    // From here on, as on the main thread, a stray exception is logged and the thread keeps serving: a front thread
    // that ended with its uWS sockets open would take the whole process down with it.
    installCrashGuards(logger);
    logger.debug({ threadId, port: listening.port }, 'REST front thread listening');
    return link.call('front', 'started', [listening.port]);
  },
  (error: unknown) => {
    logger.error({ err: error }, 'REST front thread could not listen');
    process.exit(1);
  },
);
