import { Counter, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus text at /metrics: requests by operation and outcome, plus the process defaults (RSS, heap, event loop). */
export class HttpMetrics {
  private readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'ibanqa_requests_total',
    help: 'Requests by operation and outcome (HTTP status text or error code)',
    labelNames: ['op', 'outcome'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  observe(op: string, outcome: string): void {
    this.requests.inc({ op, outcome });
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }
}
