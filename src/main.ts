import { mkdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Logger } from 'pino';
import { AccountStore, Meter, type CreatedKey } from './accounts/index.js';
import { claimDataDir } from './accounts/data-dir-claim.js';
import { migrateLegacyWatches } from './accounts/legacy-watches.js';
import { lmdbPorts, type LmdbPorts } from './accounts/lmdb-ports.js';
import { ledgerUsageReader } from './accounts/usage-reader.js';
import { systemClock, type Clock } from './clock.js';
import { loadConfig, type Config } from './config.js';
import { createLogger } from './logger.js';
import { compileInputValidator } from './ops/framework/input-validation.js';
import { isHttpOp } from './contract/op.js';
import { ops } from './ops/table.js';
import { createPool, PoolRunner } from './pool/pool.js';
import { openServiceData } from './registry/load-directory.js';
import { followRegistry, registryCatchUp } from './registry/publish/node.js';
import { loadRoutingDirectory } from './registry/routing-directory-loader.js';
import type { EmbeddedOutcome } from './registry/store/embedded.js';
import type { RegistryStore } from './registry/store/registry-store.js';
import { OpenAiCompatibleProvider } from './ops/profiles/external/openai-compatible.js';
import { Service, type ServiceDeps } from './service/execute.js';
import {
  loadManifestKeys,
  loadManifestKeysFrom,
  type SigningSettings,
} from './signing/key-ring.js';
import { openSharedState, type SharedState } from './postgres/node-state.js';
import type { StatePorts } from './ports/index.js';
import type { ManifestKeys } from './domain/manifest/signing.js';
import { openStatementReviews } from './statements/open.js';
import { readStatementReport } from './ops/statements/report-check.js';
import type { StatementReviews } from './statements/reviews.js';
import { startGrpcFront } from './transport/grpc/server.js';
import { HttpMetrics } from './transport/http/metrics.js';
import { ServiceMetrics } from './metrics/service-metrics.js';
import { buildApp, listen, type HttpFront } from './transport/http/server.js';
import { startFrontThreads, type FrontThreads } from './transport/http/threads/fronts.js';
import { sharedPort } from './transport/http/threads/shared-port.js';
import { AuthCache } from './accounts/auth-cache.js';
import type { LeaseLedger } from './ports/credits-lease.js';
import { assertPortFree } from './transport/port-claim.js';
import { uwsBuild } from './transport/http/uws-build.js';
import { installCrashGuards } from './process-guard.js';
import { buildOpenApi } from './transport/openapi/document.js';
import { statusObserverFor } from './transport/observed-statuses.js';

export interface RunningService {
  readonly httpPort: number;
  readonly grpcPort: number;
  /** Keys created on first start with an empty store (printed once, never again). */
  readonly demoKeys: readonly CreatedKey[];
  /** The data directory's accounts environment (statement reviews; keys and credits too without a database). */
  readonly store: AccountStore;
  /** The LMDB ledger; throws when the state is in PostgreSQL (read `state.meter` there). */
  readonly meter: Meter;
  /** The state ports the service runs on: LMDB, or PostgreSQL with IBANQA_DATABASE_URL. */
  readonly state: StatePorts;
  readonly statements: StatementReviews;
  /** The clock every part of this service reads. */
  readonly clock: Clock;
  /** The one path to the ops, as both fronts call it (benchmarks time it without a transport). */
  readonly service: Service;
  /** Pool threads running now: none until pooled work arrives, none again after IBANQA_POOL_IDLE_MS idle. */
  poolThreads(): number;
  /** Calls REST front threads made to this thread so far, by `port.method` (empty with one thread). */
  frontThreadCalls(): Record<string, number>;
  close(): Promise<void>;
}

/** One line for what the embedded default imported (first start, or an upgraded package), one warning per source kept. */
function reportEmbedded(logger: Logger, outcome: EmbeddedOutcome): void {
  if (outcome.imported.length > 0) {
    const snapshots = outcome.imported.map(
      ({ source_id, snapshot_date, row_count, changes, unchanged }) =>
        `${source_id} ${snapshot_date ?? 'undated'}: ${unchanged ? 'unchanged' : `${row_count} records, +${changes.added} -${changes.removed} ~${changes.modified}`}`,
    );
    logger.info({ snapshots }, 'registry: embedded data imported');
  }
  for (const kept of outcome.kept)
    logger.warn(
      { source: kept.source_id, reason: kept.reason },
      'registry: installed embedded data not imported; the registry keeps what it holds',
    );
}

const restPortSetting = 'IBANQA_PORT or --port';
const grpcPortSetting = 'IBANQA_GRPC_PORT or --grpc-port';

export interface StartOptions {
  /** What every part of the service reads time from (default: the system clock); tests pin it. */
  readonly clock?: Clock;
}

/** What every way of serving holds: stores, registry, pool and the service over them (no network front). */
export interface ServiceCore {
  /** Keys created on first start with an empty store (printed once, never again). */
  readonly demoKeys: readonly CreatedKey[];
  readonly store: AccountStore;
  /** How the state was opened: the LMDB ports, or the shared database's. */
  readonly opened: OpenedState;
  readonly state: StatePorts;
  /** The key cache in front of the state's authenticator (also in `state`), which front threads' caches ask. */
  readonly keys: AuthCache;
  readonly registry: RegistryStore;
  readonly statements: StatementReviews;
  readonly service: Service;
  readonly runner: PoolRunner;
  readonly manifestKeys: ManifestKeys | null;
  /** Closes what the core opened, in reverse; every acknowledged write is flushed first. */
  close(): Promise<void>;
}

/**
 * Opens the service without a front: `startService` puts REST and gRPC in front of it, `ibanqa mcp` its stdio
 * server. `observed` receives the main thread's own metrics.
 */
export async function openServiceCore(
  config: Config,
  logger: Logger,
  observed: ServiceMetrics,
  clock: Clock = systemClock,
): Promise<ServiceCore> {
  mkdirSync(config.dataDir, { recursive: true });
  const claim = await claimDataDir(config.dataDir);
  try {
    const core = await openClaimedCore(config, logger, observed, clock);
    return {
      ...core,
      close: async () => {
        await core.close();
        await claim.release();
      },
    };
  } catch (error) {
    await claim.release();
    throw error;
  }
}

async function openClaimedCore(
  config: Config,
  logger: Logger,
  observed: ServiceMetrics,
  clock: Clock,
): Promise<ServiceCore> {
  const { store, opened } = await openStores(config, logger, clock);
  const { demoKeys, manifestKeys } = opened;
  // Keys are looked up once per key and 5 s, not hashed per request; front threads' caches are answered from it.
  const keyCache = AuthCache.over(opened.state.authenticator);
  store.onRevoke((id) => keyCache.forget(id));
  const state: StatePorts = { ...opened.state, authenticator: keyCache };
  opened.ledger.observeCommits(observed.ledgerCommits);
  // The registry before the pool: the embedded default is imported (on an empty or outdated registry) through the
  // importer's handle, closed before the service's read-only one and the workers' open.
  const { registry, bank } = await openServiceData(
    config.dataDir,
    (outcome) => reportEmbedded(logger, outcome),
    registryCatchUp(config, logger),
  );
  observed.watchRegistry(bank);
  const runner = startPool(config, manifestKeys, observed);
  observed.watchPool(runner);
  const validators = new Map(ops.map((op) => [op.name, compileInputValidator(op)]));
  if (opened.lmdb !== null) await moveLegacyWatches(registry, store, logger);
  // US routing directory: the registry's FedACH/Fedwire snapshots, or IBANQA_US_DIRECTORY_FILES.
  const routing = loadRoutingDirectory(config.usDirectoryFiles, registry);
  const statements = openStatementReviews({
    config,
    sharedDatabase: opened.shared?.pool ?? null,
    store,
    ports: state,
    runner,
    logger,
    now: clock,
    readReport: readStatementReport,
    observeAnalysis: observed.analysed,
  });
  const service = buildService(config, {
    state,
    bank,
    routing,
    registry,
    runner,
    validators,
    manifestKeys: manifestKeys ?? null,
    statements,
    clock,
  });
  await statements.start();
  const follower = followRegistry(config, registry, logger);
  const close = async () => {
    await statements.close();
    await runner.close();
    await state.flush();
    await store.close();
    await follower?.close();
    // The node's one database pool, once, after the statement reviews and the state ports above have stopped.
    await opened.shared?.close();
    await registry.close();
  };
  const keys = manifestKeys ?? null;
  return {
    demoKeys,
    store,
    opened,
    state,
    keys: keyCache,
    registry,
    statements,
    service,
    runner,
    manifestKeys: keys,
    close,
  };
}

/** Composition root: the service core, then both fronts. Everything it opens, close() closes in reverse. */
export async function startService(
  config: Config,
  logger: Logger,
  { clock = systemClock }: StartOptions = {},
): Promise<RunningService> {
  await preflight(config, logger, clock);
  const uninstallCrashGuards = installCrashGuards(logger);
  const { metrics, observed } = openMetrics(config);
  const core = await openServiceCore(config, logger, observed, clock);
  const { demoKeys, store, state, registry, statements, service, runner, manifestKeys } = core;
  let ready = false;
  const { http, fronts } = await startRestFronts(
    config,
    logger,
    { state, service, runner, metrics, leases: core.opened.leaseLedger, keys: core.keys },
    manifestKeys,
    { isReady: () => ready, registryIdentity: () => registry.currentIdentity() },
  );
  const grpc = await startGrpc(config, { service, ops, logger, metrics }, fronts);
  ready = true;
  fronts?.setReady(true);
  logReady(config, logger, http.port, grpc.port);
  return {
    httpPort: http.port,
    grpcPort: grpc.port,
    demoKeys,
    store,
    get meter(): Meter {
      return lmdbLedgerOf(core.opened);
    },
    state,
    statements,
    clock,
    service,
    poolThreads: () => runner.threads,
    frontThreadCalls: () => fronts?.callsAnswered() ?? {},
    async close() {
      ready = false;
      http.close();
      // Front threads stop before the flush: their last calls commit through this thread's ledger.
      await fronts?.close();
      // Every write first: a stop killed while the slow parts below drain must not lose acknowledged state.
      await state.flush();
      await grpc.close();
      await core.close();
      uninstallCrashGuards();
    },
  };
}

/** The accounts environment and the state; a database that cannot be reached stops the start here, nothing left open. */
async function openStores(
  config: Config,
  logger: Logger,
  clock: Clock,
): Promise<{ store: AccountStore; opened: OpenedState }> {
  const store = AccountStore.open(config.dataDir, config.ledgerDurability);
  try {
    return { store, opened: await openState(config, store, logger, clock) };
  } catch (error) {
    await store.close();
    throw error;
  }
}

function lmdbLedgerOf(opened: OpenedState): Meter {
  if (opened.lmdb === null)
    throw new Error('the ledger is in PostgreSQL: read state.meter (a CreditMeter)');
  return opened.lmdb.ledger;
}

/** The state a node runs on: the data directory's LMDB, or the shared database when one is configured. */
interface OpenedState {
  readonly state: StatePorts;
  readonly demoKeys: readonly CreatedKey[];
  readonly manifestKeys: ManifestKeys;
  readonly ledger: { observeCommits(observer: ServiceMetrics['ledgerCommits']): void };
  readonly lmdb: LmdbPorts | null;
  readonly shared: SharedState | null;
  /** The ledger's lease operations, for the front threads' leases (their reservations need no call to this thread). */
  readonly leaseLedger: LeaseLedger;
}

async function openState(
  config: Config,
  store: AccountStore,
  logger: Logger,
  clock: Clock,
): Promise<OpenedState> {
  const signing: SigningSettings = {
    dataDir: config.dataDir,
    keyFile: config.signingKeyFile,
    enabled: config.manifestSigning,
  };
  if (config.databaseUrl === null) {
    const lmdb = lmdbPorts(store);
    return {
      state: lmdb,
      demoKeys: store.ensureDemoKeys(clock()),
      manifestKeys: loadManifestKeys(signing),
      ledger: lmdb.ledger,
      lmdb,
      shared: null,
      leaseLedger: lmdb.leaseLedger,
    };
  }
  const shared = await openSharedState(config.databaseUrl, {
    leaseTtlMs: config.leaseTtlMs,
    onLeaseError: (error) => logger.warn({ err: error }, 'credit lease renewal failed'),
    onIdleError: (error) =>
      logger.warn({ err: error }, 'database: an idle connection failed; the pool opens another'),
  });
  const { keys, ledger } = shared.ports;
  if (shared.migration.applied.length > 0)
    logger.info(
      {
        applied: shared.migration.applied.map((m) => m.version),
        version: shared.migration.version,
      },
      'database schema migrated',
    );
  return {
    state: shared.ports,
    demoKeys: await keys.ensureDemoKeys(clock()),
    manifestKeys: await loadManifestKeysFrom(shared.keyRing, signing),
    ledger,
    lmdb: null,
    shared,
    leaseLedger: shared.leaseLedger,
  };
}

/** The gRPC front; front threads must not outlive a failed start (a thread ending with open uWS sockets aborts). */
async function startGrpc(
  config: Config,
  deps: Omit<Parameters<typeof startGrpcFront>[0], 'observer'>,
  fronts: FrontThreads | undefined,
): Promise<Awaited<ReturnType<typeof startGrpcFront>>> {
  try {
    return await startGrpcFront(
      { ...deps, observer: statusObserverFor(config.frontSettings.observedStatusesDir) },
      { host: config.host, port: config.grpcPort, setting: grpcPortSetting },
    );
  } catch (error) {
    await fronts?.close();
    throw error;
  }
}

/** Before anything is opened: settings that cannot work together, the start-up log line, the ports. */
async function preflight(config: Config, logger: Logger, clock: Clock): Promise<void> {
  assertClockReachesFronts(config, clock);
  logStartup(config, logger);
  await claimPorts(config);
}

/**
 * REST front threads answer 'any' ops with a Service of their own, which reads the system clock (a function cannot
 * cross to another thread): a pinned clock would not reach them, so it runs with the one REST thread only.
 */
function assertClockReachesFronts(config: Config, clock: Clock): void {
  if (clock !== systemClock && config.httpThreads > 1)
    throw new Error(
      `a pinned clock runs with one REST thread only (IBANQA_HTTP_THREADS is ${config.httpThreads}): front threads read the system clock`,
    );
}

/** Before anything is opened: a port another service holds stops the start with one line, nothing to undo. */
async function claimPorts(config: Config): Promise<void> {
  const { host, httpPort, grpcPort } = config;
  await assertPortFree({ front: 'REST', host, port: httpPort, setting: restPortSetting });
  await assertPortFree({ front: 'gRPC', host, port: grpcPort, setting: grpcPortSetting });
}

/** Which uWS build the REST front loaded (and why newer ones did not), and deprecated settings in use. */
function logStartup(config: Config, logger: Logger): void {
  const uws = uwsBuild();
  logger.info(
    { build: uws.build, binary: uws.binary, node: process.versions.node, skipped: uws.skipped },
    `REST front: ${uws.build} (${uws.skipped.length === 0 ? 'the newest build' : `newer builds do not load here: ${uws.skipped.map((s) => `${s.build}: ${s.reason}`).join('; ')}`})`,
  );
  if (config.trustProxyDeprecated)
    logger.warn(
      'IBANQA_TRUST_PROXY is deprecated: it believes X-Forwarded-For from every peer; list your proxies in IBANQA_TRUSTED_PROXIES instead',
    );
}

function startPool(
  config: Config,
  manifestKeys: ManifestKeys,
  observer: ServiceMetrics,
): PoolRunner {
  return new PoolRunner(
    createPool({
      threads: config.poolThreads,
      idleMs: config.poolIdleMs,
      dataDir: config.dataDir,
      usDirectoryFiles: config.usDirectoryFiles,
      manifestKeys,
    }),
    observer,
  );
}

/** /metrics of this process: requests (summed over REST front threads), and the main thread's own metrics. */
function openMetrics(config: Config): { metrics: HttpMetrics; observed: ServiceMetrics } {
  const metrics = new HttpMetrics(config.httpThreads > 1 ? { thread: 'main' } : {});
  const observed = new ServiceMetrics();
  metrics.register(...observed.all);
  return { metrics, observed };
}

/** Watches an older version kept in the registry env move to the accounts store, where they now live. */
async function moveLegacyWatches(
  registry: RegistryStore,
  store: AccountStore,
  logger: Logger,
): Promise<void> {
  const moved = await migrateLegacyWatches(
    registry.dbs.watches.getRange(),
    store.subDatabase('watches'),
  );
  if (moved > 0) logger.info({ watches: moved }, 'registry watches moved to the accounts store');
}

/** The one path to the ops, over what startService opened. */
function buildService(config: Config, opened: ServiceParts): Service {
  const { state, bank, routing, registry, runner, validators } = opened;
  return new Service({
    state,
    data: { bank, routing, registry },
    runner,
    poolThresholdRows: config.poolThresholdRows,
    validators,
    usage: ledgerUsageReader(state.authenticator, state.meter, opened.clock),
    now: opened.clock,
    profileProvider:
      config.aiProfile === null ? null : new OpenAiCompatibleProvider(config.aiProfile),
    manifestKeys: opened.manifestKeys,
    statements: opened.statements,
  });
}

interface ServiceParts {
  readonly state: StatePorts;
  readonly bank: NonNullable<ServiceDeps['data']['bank']>;
  readonly routing: NonNullable<ServiceDeps['data']['routing']>;
  readonly registry: NonNullable<ServiceDeps['data']['registry']>;
  readonly runner: PoolRunner;
  readonly validators: ServiceDeps['validators'];
  readonly manifestKeys: ManifestKeys | null;
  readonly statements: StatementReviews;
  readonly clock: Clock;
}

/** This thread's REST app on its port, then the other front threads on the same port when there are any. */
async function startRestFronts(
  config: Config,
  logger: Logger,
  deps: Pick<
    Parameters<typeof startFrontThreads>[0],
    'state' | 'service' | 'runner' | 'metrics' | 'leases' | 'keys'
  >,
  manifestKeys: ManifestKeys | null,
  readiness: Pick<Parameters<typeof buildApp>[0], 'isReady' | 'registryIdentity'>,
): Promise<{ http: HttpFront; fronts: FrontThreads | undefined }> {
  const httpOps = ops.filter(isHttpOp);
  const openapi = buildOpenApi(httpOps);
  const { metrics } = deps;
  const app = buildApp({
    service: deps.service,
    ops: httpOps,
    openapi: () => openapi,
    logger,
    metrics,
    ...readiness,
    trustedProxies: config.trustedProxies,
    cors: config.cors,
    observer: statusObserverFor(config.frontSettings.observedStatusesDir),
  });
  // One thread holds its port exclusively; several front threads of this process share theirs on purpose.
  const http =
    config.httpThreads > 1
      ? await listen(app, config.host, await sharedPort(config.host, config.httpPort), 'shared')
      : await listen(app, config.host, config.httpPort, 'exclusive');
  const fronts =
    config.httpThreads > 1
      ? await startFronts(config, logger, deps, http.port, manifestKeys)
      : undefined;
  return { http, fronts };
}

function logReady(config: Config, logger: Logger, httpPort: number, grpcPort: number): void {
  logger.info(
    {
      rest: `http://${config.host}:${httpPort}/api/v1`,
      grpc: `${config.host}:${grpcPort}`,
      dataDir: config.dataDir,
    },
    'ibanqa ready',
  );
}

/** IBANQA_HTTP_THREADS - 1 front threads on the main app's port; scrapes of /metrics sum every thread. */
async function startFronts(
  config: Config,
  logger: Logger,
  deps: Pick<
    Parameters<typeof startFrontThreads>[0],
    'state' | 'service' | 'runner' | 'metrics' | 'leases' | 'keys'
  >,
  port: number,
  manifestKeys: ManifestKeys | null,
): Promise<FrontThreads> {
  const settings = {
    host: config.host,
    port,
    dataDir: config.dataDir,
    usDirectoryFiles: config.usDirectoryFiles,
    poolThresholdRows: config.poolThresholdRows,
    manifestKeys,
    front: config.frontSettings,
    logLevel: logger.level,
  };
  const fronts = await startFrontThreads({
    ...deps,
    count: config.httpThreads - 1,
    settings,
    logger,
  });
  deps.metrics.addPeers(() => fronts.counts());
  logger.info(
    { threads: config.httpThreads },
    `REST front: ${config.httpThreads} threads on port ${port}`,
  );
  return fronts;
}

export function printDemoKeys(keys: readonly CreatedKey[], write: (line: string) => void): void {
  if (keys.length === 0) return;
  write('Demo API keys (created on first start; shown once, store them now):');
  for (const key of keys) write(`  ${key.plan.padEnd(10)} ${key.key}  (${key.id})`);
}

/** Runs until SIGINT/SIGTERM, then closes everything and exits. */
export async function serveForever(config: Config): Promise<void> {
  const logger = createLogger(config.logLevel);
  const running = await startService(config, logger);
  printDemoKeys(running.demoKeys, (line) => process.stdout.write(`${line}\n`));
  process.stdout.write(
    `ibanqa: REST http://${config.host}:${running.httpPort}/api/v1  gRPC ${config.host}:${running.grpcPort}\n`,
  );
  const stop = () => {
    void running.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  serveForever(loadConfig(process.env)).catch((error: unknown) => {
    process.stderr.write(
      `ibanqa failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
}
