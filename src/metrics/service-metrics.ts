import { Gauge, Histogram, type Metric } from 'prom-client';
import type { LatencyObserver } from '../accounts/meter.js';
import type { PoolObserver, PoolTaskOutcome } from '../pool/pool.js';
import type { BankDirectory } from '../registry/bank-directory.js';
import type { AnalysisOutcomeName } from '../statements/reviews.js';
import { buckets } from './buckets.js';

/** What the registry info metric reads at each scrape: the bank directory every response names its data from. */
export type RegistryIdentitySource = Pick<BankDirectory, 'syncVersion' | 'fingerprint'>;

/**
 * The main thread's own metrics: its worker pool, its credit ledger, statement analyses and the registry it
 * answers from. Every label comes from a closed set (op names, pool task outcomes, failure reasons) or, for the
 * registry, names the one current version. Gauges are read at scrape time, so they cost nothing per request.
 */
export class ServiceMetrics implements PoolObserver {
  private pool: { readonly queueDepth: number } | undefined;
  private registry: RegistryIdentitySource | undefined;
  private readonly poolTasks = new Histogram({
    name: 'ibanqa_pool_task_duration_seconds',
    help: 'Worker pool tasks from hand-over to result (queue wait included), by task (op name or statement-analysis) and outcome (ok, error: answered an error, failed: threw or was stopped)',
    labelNames: ['task', 'outcome'] as const,
    buckets: [...buckets.poolTask],
    registers: [],
  });
  private readonly poolQueue = new Gauge({
    name: 'ibanqa_pool_queue_depth',
    help: 'Worker pool tasks waiting for a free worker',
    registers: [],
    collect: () => {
      if (this.pool !== undefined) this.poolQueue.set(this.pool.queueDepth);
    },
  });
  /** A commit's seconds from commit() to its durable LMDB write (a prom-client Histogram observes unlabelled). */
  readonly ledgerCommits: LatencyObserver = new Histogram({
    name: 'ibanqa_ledger_commit_duration_seconds',
    help: 'Credit ledger commits that spend credits, from the commit to its durable write resolving (IBANQA_LEDGER_DURABILITY)',
    buckets: [...buckets.ledgerCommit],
    registers: [],
  });
  private readonly analyses = new Histogram({
    name: 'ibanqa_statement_analysis_duration_seconds',
    help: 'Statement analyses from start to outcome, by outcome (completed, or the failure reason)',
    labelNames: ['outcome'] as const,
    buckets: [...buckets.statementAnalysis],
    registers: [],
  });
  private readonly registryInfo = new Gauge({
    name: 'ibanqa_registry_info',
    help: 'The bank registry the service answers from: always 1, its version (committed imports) and fingerprint as labels',
    labelNames: ['version', 'fingerprint'] as const,
    registers: [],
    collect: () => {
      if (this.registry === undefined) return;
      // As a request does: the version committed now (an import by the CLI included), then its fingerprint.
      const version = this.registry.syncVersion();
      this.registryInfo.reset();
      this.registryInfo.labels(String(version), this.registry.fingerprint).set(1);
    },
  });

  /** Every metric, for the /metrics registry. */
  get all(): Metric[] {
    return [
      this.poolTasks,
      this.poolQueue,
      this.ledgerCommits as Histogram,
      this.analyses,
      this.registryInfo,
    ];
  }

  taskSettled(task: string, outcome: PoolTaskOutcome, seconds: number): void {
    this.poolTasks.labels(task, outcome).observe(seconds);
  }

  readonly analysed = (outcome: AnalysisOutcomeName, seconds: number): void => {
    this.analyses.labels(outcome).observe(seconds);
  };

  /** The pool whose queue the gauge reports. */
  watchPool(pool: { readonly queueDepth: number }): void {
    this.pool = pool;
  }

  /** The registry the info metric names: read at each scrape, so only the current version is ever listed. */
  watchRegistry(registry: RegistryIdentitySource): void {
    this.registry = registry;
  }
}
