import { AggregatorRegistry, Counter, Registry, collectDefaultMetrics } from 'prom-client';

/** Request counters of one thread as prom-client's JSON (what crosses from a front thread at a scrape). */
export type RequestCounts = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

export interface MetricsOptions {
  /**
   * Set with several REST front threads (IBANQA_HTTP_THREADS > 1): this thread's name, counted per REST
   * request in ibanqa_rest_thread_requests_total so a scrape shows how the kernel spread connections.
   */
  readonly thread?: string;
  /** Process defaults (RSS, heap, event loop); off in a front thread: the main thread reports the process. */
  readonly processMetrics?: boolean;
}

/**
 * Prometheus text at /metrics: requests by operation, outcome and transport (rest, grpc), plus the process
 * defaults (RSS, heap, event loop). REST outcomes are the status text or error code, gRPC ones the status name.
 * With front threads, the main thread's scrape sums every thread's request counters (`peers`).
 */
export class HttpMetrics {
  private readonly registry = new Registry();
  /** Counters only: what a scrape sums over threads (the process defaults are not summed: one process). */
  private readonly counters = new Registry();
  private readonly requests = new Counter({
    name: 'ibanqa_requests_total',
    help: 'Requests by operation, outcome (HTTP status text or error code; gRPC status name) and transport',
    labelNames: ['op', 'outcome', 'transport'] as const,
    registers: [this.registry, this.counters],
  });
  private readonly threadRequests: Counter<'thread'> | undefined;
  private peers: (() => Promise<RequestCounts[]>) | undefined;
  private remote: (() => Promise<string>) | undefined;

  constructor(private readonly options: MetricsOptions = {}) {
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry });
    if (options.thread !== undefined) {
      this.threadRequests = new Counter({
        name: 'ibanqa_rest_thread_requests_total',
        help: 'REST requests answered, by front thread (IBANQA_HTTP_THREADS)',
        labelNames: ['thread'] as const,
        registers: [this.registry, this.counters],
      });
    }
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  observe(op: string, outcome: string, transport: 'rest' | 'grpc' = 'rest'): void {
    this.requests.inc({ op, outcome, transport });
    if (transport === 'rest' && this.threadRequests !== undefined)
      this.threadRequests.inc({ thread: this.options.thread as string });
  }

  /** Main thread: the request counters of the front threads, summed into every scrape. */
  addPeers(peers: () => Promise<RequestCounts[]>): void {
    this.peers = peers;
  }

  /** Front thread: a scrape is the main thread's (which sums every thread). */
  renderRemotely(render: () => Promise<string>): void {
    this.remote = render;
  }

  /** This thread's request counters. */
  counts(): Promise<RequestCounts> {
    return this.counters.getMetricsAsJSON();
  }

  async render(): Promise<string> {
    if (this.remote !== undefined) return this.remote();
    if (this.peers === undefined) return this.registry.metrics();
    const summed = AggregatorRegistry.aggregate<typeof this.registry.contentType>([
      await this.counts(),
      ...(await this.peers()),
    ]);
    const defaults = new Registry();
    for (const metric of await this.registry.getMetricsAsJSON()) {
      if (this.counters.getSingleMetric(metric.name) === undefined)
        defaults.registerMetric(this.registry.getSingleMetric(metric.name)!);
    }
    return Registry.merge([summed, defaults]).metrics();
  }
}
