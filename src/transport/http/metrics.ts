import { Counter, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus text at /metrics: requests by operation, outcome and transport (rest, grpc), plus the process
 * defaults (RSS, heap, event loop). REST outcomes are the status text or error code, gRPC ones the status name.
 */
export class HttpMetrics {
  private readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'ibanqa_requests_total',
    help: 'Requests by operation, outcome (HTTP status text or error code; gRPC status name) and transport',
    labelNames: ['op', 'outcome', 'transport'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  observe(op: string, outcome: string, transport: 'rest' | 'grpc' = 'rest'): void {
    this.requests.inc({ op, outcome, transport });
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }
}
