import {
  AggregatorRegistry,
  Counter,
  Histogram,
  Registry,
  collectDefaultMetrics,
  type Metric,
} from 'prom-client';
import { buckets } from '../../metrics/buckets.js';
import { LabelCache } from '../../metrics/label-cache.js';
import {
  grpcOutcomeClass,
  outcomeClassOfStatus,
  type OutcomeClass,
} from '../../metrics/outcome.js';
import { httpStatusOf } from './status.js';

/** Request counters of one thread as prom-client's JSON (what crosses from a front thread at a scrape). */
export type RequestCounts = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

/** mcp: one tool call over MCP (its POST /mcp is also one REST request, op service.mcp). */
export type Transport = 'rest' | 'grpc' | 'mcp';

export interface MetricsOptions {
  /**
   * Set with several REST front threads (IBANQA_HTTP_THREADS > 1): this thread's name, counted per REST
   * request in ibanqa_rest_thread_requests_total so a scrape shows how the kernel spread connections.
   */
  readonly thread?: string;
  /** Process defaults (RSS, heap, event loop); off in a front thread: the main thread reports the process. */
  readonly processMetrics?: boolean;
}

const restClasses = new Map<string, OutcomeClass>(
  Object.entries(httpStatusOf).map(([code, line]) => [
    code,
    outcomeClassOfStatus(Number.parseInt(line, 10)),
  ]),
);

/** A REST outcome as it is counted (an error code, or a status line such as "201 Created") as its class. */
export function restOutcomeClass(outcome: string): OutcomeClass {
  return restClasses.get(outcome) ?? outcomeClassOfStatus(Number.parseInt(outcome, 10));
}

interface Observer {
  observe(value: number): void;
}
interface Incrementer {
  inc(): void;
}

/**
 * Prometheus text at /metrics: requests by operation, outcome and transport (rest, grpc) with their duration,
 * the process defaults (RSS, heap, event loop), and whatever the main thread registers (pool, ledger, statement
 * analyses, registry identity: src/metrics/service-metrics.ts). REST outcomes are the status text or error code,
 * gRPC ones the status name. With front threads, the main thread's scrape sums every thread's request series (`peers`).
 */
export class HttpMetrics {
  private readonly registry = new Registry();
  /** What a scrape sums over threads: each thread's requests. The rest is the process's, reported once. */
  private readonly summed = new Registry();
  private readonly requests = new Counter({
    name: 'ibanqa_requests_total',
    help: 'Requests by operation, outcome (HTTP status text or error code; gRPC status name) and transport',
    labelNames: ['op', 'outcome', 'transport'] as const,
    registers: [this.registry, this.summed],
  });
  private readonly duration = new Histogram({
    name: 'ibanqa_request_duration_seconds',
    help: 'Request duration from the first byte handled to the answer written (gRPC streams: the whole call), by operation, transport and outcome class',
    labelNames: ['op', 'transport', 'outcome'] as const,
    buckets: [...buckets.request],
    registers: [this.registry, this.summed],
  });
  /** Children per label set, made once: labels() builds and validates a label object on every call. */
  private readonly counted = new LabelCache<Incrementer>((op, outcome, transport) =>
    this.requests.labels(op, outcome, transport),
  );
  private readonly timed = new LabelCache<Observer>((op, transport, outcome) =>
    this.duration.labels(op, transport, outcome),
  );
  private readonly threadRequests: Incrementer | undefined;
  private peers: (() => Promise<RequestCounts[]>) | undefined;
  private remote: (() => Promise<string>) | undefined;

  constructor(options: MetricsOptions = {}) {
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry });
    if (options.thread !== undefined) {
      this.threadRequests = new Counter({
        name: 'ibanqa_rest_thread_requests_total',
        help: 'REST requests answered, by front thread (IBANQA_HTTP_THREADS)',
        labelNames: ['thread'] as const,
        registers: [this.registry, this.summed],
      }).labels(options.thread);
    }
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /**
   * Counts one answered request; with `startedMs` (performance.now() when the request arrived) it also records
   * its duration. `outcome`: REST and MCP, the status text or error code; gRPC, the status name.
   */
  observe(op: string, outcome: string, transport: Transport = 'rest', startedMs?: number): void {
    this.counted.get(op, outcome, transport).inc();
    if (startedMs !== undefined) {
      const outcomeClass =
        transport === 'grpc' ? grpcOutcomeClass(outcome) : restOutcomeClass(outcome);
      this.timed.get(op, transport, outcomeClass).observe((performance.now() - startedMs) / 1000);
    }
    if (transport === 'rest') this.threadRequests?.inc();
  }

  /** A metric of this process (the main thread's pool, ledger, ...): in every scrape, never summed over threads. */
  register(...metrics: Metric[]): void {
    for (const metric of metrics) this.registry.registerMetric(metric);
  }

  /** Main thread: the request series of the front threads, summed into every scrape. */
  addPeers(peers: () => Promise<RequestCounts[]>): void {
    this.peers = peers;
  }

  /** Front thread: a scrape is the main thread's (which sums every thread). */
  renderRemotely(render: () => Promise<string>): void {
    this.remote = render;
  }

  /** This thread's request series. */
  counts(): Promise<RequestCounts> {
    return this.summed.getMetricsAsJSON();
  }

  async render(): Promise<string> {
    if (this.remote !== undefined) return this.remote();
    if (this.peers === undefined) return this.registry.metrics();
    const summed = AggregatorRegistry.aggregate<typeof this.registry.contentType>([
      await this.counts(),
      ...(await this.peers()),
    ]);
    const process = new Registry();
    for (const metric of await this.registry.getMetricsAsJSON()) {
      if (this.summed.getSingleMetric(metric.name) === undefined)
        process.registerMetric(this.registry.getSingleMetric(metric.name)!);
    }
    return Registry.merge([summed, process]).metrics();
  }
}
