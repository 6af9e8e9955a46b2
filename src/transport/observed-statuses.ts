import { appendFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';

/**
 * One kind of answer a front sent: which operation (its OpenAPI operationId over REST, the op name over gRPC,
 * or the router's `not_found` / `method_not_allowed` / `preflight` for a request no operation took), the status
 * (three digits over REST, the gRPC status name), the error code when it was a refusal, and whether the request
 * carried an API key.
 */
export interface ObservedStatus {
  readonly transport: 'rest' | 'grpc';
  readonly operation: string;
  readonly status: string;
  readonly code: string | null;
  readonly keyed: boolean;
}

/**
 * Records each distinct answer once per process and thread, as a JSON line appended to
 * `<dir>/<pid>-<thread>.jsonl`: a few dozen lines per service, each written the first time it is seen, so
 * recording costs a Set lookup per answer. Off unless IBANQA_OBSERVED_STATUSES_DIR is set (config.ts).
 */
export class StatusObserver {
  private readonly seen = new Set<string>();
  private readonly file: string;

  constructor(private readonly dir: string) {
    this.file = join(dir, `${process.pid}-${threadId}.jsonl`);
  }

  record(observed: ObservedStatus): void {
    const line = JSON.stringify(observed);
    if (this.seen.has(line)) return;
    this.seen.add(line);
    // Created on first use (and again if a test run removed it): recording never stops an answer.
    try {
      appendFileSync(this.file, `${line}\n`);
    } catch {
      mkdirSync(this.dir, { recursive: true });
      appendFileSync(this.file, `${line}\n`);
    }
  }
}

export function statusObserverFor(dir: string | undefined): StatusObserver | undefined {
  return dir === undefined ? undefined : new StatusObserver(dir);
}

/** Every answer recorded under `dir` by any process or thread, deduplicated. */
export function readObservedStatuses(dir: string): ObservedStatus[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((name) => name.endsWith('.jsonl'));
  } catch {
    return [];
  }
  const lines = new Set<string>();
  for (const name of files) {
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n'))
      if (line !== '') lines.add(line);
  }
  return [...lines].map((line) => JSON.parse(line) as ObservedStatus);
}
