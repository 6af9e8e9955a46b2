import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';

/**
 * Environment -> one frozen Config, validated in one place (piscina-style: one clear error per bad setting).
 * CLI flags (`ibanqa serve --port ...`) override the environment.
 */
export interface Config {
  readonly host: string;
  readonly httpPort: number;
  readonly grpcPort: number;
  readonly dataDir: string;
  readonly poolThreads: number;
  /** Rows of work above which an operation runs in the worker pool instead of inline (see bench/RESULTS.md). */
  readonly poolThresholdRows: number;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'silent';
  /** Trust X-Forwarded-For for the keyless per-IP limit only behind a proxy the operator controls. */
  readonly trustProxy: boolean;
}

export type ConfigOverrides = Partial<Pick<Config, 'host' | 'httpPort' | 'grpcPort' | 'dataDir'>>;

/**
 * 2,000 rows: a pool task costs 30-100 us of dispatch (notes/stack.md §3) while generating or
 * validating a row costs about 0.2-2 us inline, so below ~2,000 rows the hop costs more than it frees
 * the event loop. Measured again by bench/pool-threshold.ts; the figure is in bench/RESULTS.md.
 */
export const defaultPoolThresholdRows = 2_000;

function portFrom(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new RangeError(`${name} must be an integer port from 0 to 65535, got ${JSON.stringify(raw)}`);
  }
  return port;
}

function positiveIntFrom(name: string, raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new RangeError(`${name} must be an integer from 1 to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'silent'] as const;

function logLevelFrom(raw: string | undefined): Config['logLevel'] {
  if (raw === undefined || raw === '') return 'info';
  const level = logLevels.find((candidate) => candidate === raw);
  if (level === undefined) throw new RangeError(`IBANQA_LOG_LEVEL must be one of ${logLevels.join(', ')}`);
  return level;
}

/** Worker threads: a fixed pool sized to the machine, at most 16 (beyond that LMDB readers and memory dominate). */
const poolThreadsMax = 16;

export function loadConfig(env: NodeJS.ProcessEnv, overrides: ConfigOverrides = {}): Config {
  const config: Config = {
    host: overrides.host ?? env.IBANQA_HOST ?? '127.0.0.1',
    httpPort: overrides.httpPort ?? portFrom('IBANQA_PORT', env.IBANQA_PORT ?? env.PORT, 8080),
    grpcPort: overrides.grpcPort ?? portFrom('IBANQA_GRPC_PORT', env.IBANQA_GRPC_PORT, 50051),
    dataDir: resolve(overrides.dataDir ?? env.IBANQA_DATA_DIR ?? 'var'),
    poolThreads: positiveIntFrom(
      'IBANQA_POOL_THREADS',
      env.IBANQA_POOL_THREADS,
      Math.min(availableParallelism(), poolThreadsMax),
      poolThreadsMax,
    ),
    poolThresholdRows: positiveIntFrom(
      'IBANQA_POOL_THRESHOLD_ROWS',
      env.IBANQA_POOL_THRESHOLD_ROWS,
      defaultPoolThresholdRows,
      1_000_000,
    ),
    logLevel: logLevelFrom(env.IBANQA_LOG_LEVEL),
    trustProxy: env.IBANQA_TRUST_PROXY === '1' || env.IBANQA_TRUST_PROXY === 'true',
  };
  return Object.freeze(config);
}
