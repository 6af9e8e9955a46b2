import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { ledgerDurabilities, type LedgerDurability } from './accounts/ledger-durability.js';
import { frontThreadLimits, limits, profileLimits } from './limits.js';
import type { ExternalProviderSettings } from './ops/profiles/external/openai-compatible.js';
import { corsOff, parseCorsOrigins, type CorsPolicy } from './transport/http/cors.js';
import type { FrontSettings } from './transport/http/threads/settings.js';
import {
  parseTrustedProxies,
  trustEveryProxy,
  type TrustedProxies,
} from './transport/http/client-address.js';
import {
  parseDirectoryFilesSetting,
  usDirectoryFilesEnv,
  type DirectoryFile,
} from './registry/routing-directory-loader.js';

export type { FrontSettings } from './transport/http/threads/settings.js';

/**
 * Environment -> one frozen Config, validated in one place (piscina-style: one clear error per bad setting).
 * CLI flags (`ibanqa serve --port ...`) override the environment.
 */
export interface Config {
  readonly host: string;
  readonly httpPort: number;
  readonly grpcPort: number;
  readonly dataDir: string;
  /**
   * IBANQA_DATABASE_URL or --database-url: a PostgreSQL URL (postgres://user:password@host:port/database). Set, keys,
   * credits, the keyless allowance, idempotency records, watches and the manifest signing keys live in that
   * database, shared by every node that names it (src/postgres/), and the registry publishes imports through it
   * (src/registry/publish/); null (the default): this node stands alone, all state in the data directory's LMDB.
   */
  readonly databaseUrl: string | null;
  /** IBANQA_LEASE_TTL_MS: how long a credit lease of a node that stopped renewing it lives (limits.leases.ttlMs). */
  readonly leaseTtlMs: number;
  /** IBANQA_LEDGER_DURABILITY=disk|process: how far an acknowledged debit has travelled (src/accounts/account-store.ts). */
  readonly ledgerDurability: LedgerDurability;
  readonly poolThreads: number;
  /** IBANQA_POOL_IDLE_MS: a pool thread (and a thread's OCR engine) idle this long is released; started again on demand. */
  readonly poolIdleMs: number;
  /**
   * IBANQA_HTTP_THREADS: REST front threads. 1 (default): the main thread's uWS app only. N > 1: N - 1 worker
   * threads add their own uWS app on the same host:port (SO_REUSEPORT; src/transport/http/threads/).
   */
  readonly httpThreads: number;
  /** The front settings as given, for front threads, which rebuild `trustedProxies` and `cors` from them (functions do not cross threads). */
  readonly frontSettings: FrontSettings;
  /** Rows of work above which an operation runs in the worker pool instead of inline (see bench/RESULTS.md). */
  readonly poolThresholdRows: number;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'silent';
  /**
   * IBANQA_TRUSTED_PROXIES="10.0.0.5, 10.1.0.0/16": peers whose X-Forwarded-For names the client for the
   * keyless per-IP limit. Empty: the socket address counts. The older IBANQA_TRUST_PROXY=true trusts every
   * peer; it still works, is deprecated, and start-up warns (`trustProxyDeprecated`).
   */
  readonly trustedProxies: TrustedProxies;
  readonly trustProxyDeprecated: boolean;
  /** IBANQA_CORS_ORIGINS="https://a.example,...": origins a browser may call from; empty: CORS off. */
  readonly cors: CorsPolicy;
  /** IBANQA_US_DIRECTORY_FILES="fedach:<path>,fedwire:<path>": FedACH/Fedwire files that win over the registry's snapshots. */
  readonly usDirectoryFiles: readonly DirectoryFile[];
  /** External OpenAI-compatible provider for /ai-profile (IBANQA_AI_PROFILE_URL, _MODEL, _KEY, _TIMEOUT_MS); null: built-in only. */
  readonly aiProfile: ExternalProviderSettings | null;
  /** IBANQA_SIGNING_KEY_FILE: an operator's Ed25519 private key (PKCS#8 PEM) that signs fixture manifests. */
  readonly signingKeyFile: string | null;
  /** IBANQA_MANIFEST_SIGNING=off turns manifest signing off (default on, with a key created in the data directory). */
  readonly manifestSigning: boolean;
  /** IBANQA_STATEMENT_RETENTION_SECONDS: how long a statement review (upload, record, report) is kept; default 24 hours. */
  readonly statementRetentionSeconds: number;
  /** IBANQA_STATEMENT_REGION: where this instance stores uploads, as the operator declares it (shown in `retention.region`). */
  readonly statementRegion: string;
  /** IBANQA_STATEMENT_KEY: 64 hex characters (AES-256 key for uploads at rest); null: a key file in the data directory. */
  readonly statementKeyHex: string | null;
}

export type ConfigOverrides = Partial<
  Pick<Config, 'host' | 'httpPort' | 'grpcPort' | 'dataDir' | 'databaseUrl'>
>;

/**
 * 2,000 rows. Below it the hop to a worker costs more than the work (a 100-row generate is about 1 ms
 * inline, 2 ms pooled: bench/RESULTS.md §4). Above it, with workers serializing their own JSON/CSV, large
 * requests stop blocking the event loop: during 10,000-row bulk datasets small requests kept a p99 of 30 ms
 * pooled against 626 ms inline, at the price of each bulk request taking about 1.3x as long on 2 cores
 * (bench/pool-relief.ts).
 */
export const defaultPoolThresholdRows = 2_000;

function portFrom(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new RangeError(
      `${name} must be an integer port from 0 to 65535, got ${JSON.stringify(raw)}`,
    );
  }
  return port;
}

function positiveIntFrom(
  name: string,
  raw: string | undefined,
  fallback: number,
  max: number,
): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new RangeError(`${name} must be an integer from 1 to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

function onOffFrom(name: string, raw: string | undefined): boolean {
  if (raw === undefined || raw === '' || raw === 'on') return true;
  if (raw === 'off') return false;
  throw new RangeError(`${name} must be on or off, got ${JSON.stringify(raw)}`);
}

/** A postgres:// or postgresql:// URL, or null when none is given. */
export function databaseUrlFrom(raw: string | undefined | null): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  let protocol: string;
  try {
    protocol = new URL(raw).protocol;
  } catch {
    throw new RangeError(
      'IBANQA_DATABASE_URL (--database-url) must be a URL such as postgres://user@host:5432/database',
    );
  }
  if (protocol !== 'postgres:' && protocol !== 'postgresql:')
    throw new RangeError(
      `IBANQA_DATABASE_URL (--database-url) must be a postgres:// or postgresql:// URL, got ${protocol}`,
    );
  return raw;
}

function ledgerDurabilityFrom(raw: string | undefined): LedgerDurability {
  if (raw === undefined || raw === '') return 'disk';
  const durability = ledgerDurabilities.find((candidate) => candidate === raw);
  if (durability === undefined)
    throw new RangeError(
      `IBANQA_LEDGER_DURABILITY must be one of ${ledgerDurabilities.join(', ')}, got ${JSON.stringify(raw)}`,
    );
  return durability;
}

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'silent'] as const;

function logLevelFrom(raw: string | undefined): Config['logLevel'] {
  if (raw === undefined || raw === '') return 'info';
  const level = logLevels.find((candidate) => candidate === raw);
  if (level === undefined)
    throw new RangeError(`IBANQA_LOG_LEVEL must be one of ${logLevels.join(', ')}`);
  return level;
}

/** Statement retention default: 24 hours, long enough to poll a review after a day's batch, short for financial documents. */
export const defaultStatementRetentionSeconds = 24 * 60 * 60;

function statementKeyFrom(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  if (!/^[0-9a-fA-F]{64}$/.test(raw))
    throw new RangeError('IBANQA_STATEMENT_KEY must be 64 hexadecimal characters (a 256-bit key)');
  return raw.toLowerCase();
}

/** IBANQA_AI_PROFILE_URL switches the external provider on; it then needs a model, and the URL must be http(s). */
function aiProfileFrom(env: NodeJS.ProcessEnv): ExternalProviderSettings | null {
  const url = env.IBANQA_AI_PROFILE_URL ?? '';
  if (url === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RangeError(
      `IBANQA_AI_PROFILE_URL must be an http(s) URL, got ${JSON.stringify(url)}`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new RangeError('IBANQA_AI_PROFILE_URL must be an http(s) URL');
  const model = env.IBANQA_AI_PROFILE_MODEL ?? '';
  if (model === '')
    throw new RangeError(
      'IBANQA_AI_PROFILE_MODEL must name the model when IBANQA_AI_PROFILE_URL is set',
    );
  return Object.freeze({
    url,
    model,
    apiKey: env.IBANQA_AI_PROFILE_KEY ?? '',
    timeoutMs: positiveIntFrom(
      'IBANQA_AI_PROFILE_TIMEOUT_MS',
      env.IBANQA_AI_PROFILE_TIMEOUT_MS,
      profileLimits.externalTimeoutMsDefault,
      limits.config.aiTimeoutMsMax,
    ),
  });
}

/** The proxy and CORS policies of these settings: the main thread's Config, rebuilt in a front thread. */
export function frontPolicies(settings: FrontSettings): Pick<Config, 'trustedProxies' | 'cors'> {
  const trustedProxies =
    settings.trustedProxies.trim() !== ''
      ? parseTrustedProxies(settings.trustedProxies)
      : settings.trustEveryProxy
        ? trustEveryProxy
        : parseTrustedProxies('');
  return {
    trustedProxies,
    cors: settings.corsOrigins === undefined ? corsOff : parseCorsOrigins(settings.corsOrigins),
  };
}

function trustedProxiesFrom(
  env: NodeJS.ProcessEnv,
): Pick<Config, 'trustedProxies' | 'trustProxyDeprecated'> {
  const legacy = env.IBANQA_TRUST_PROXY === '1' || env.IBANQA_TRUST_PROXY === 'true';
  const listed = env.IBANQA_TRUSTED_PROXIES ?? '';
  if (listed.trim() !== '')
    return { trustedProxies: parseTrustedProxies(listed), trustProxyDeprecated: legacy };
  return {
    trustedProxies: legacy ? trustEveryProxy : parseTrustedProxies(''),
    trustProxyDeprecated: legacy,
  };
}

function poolFrom(env: NodeJS.ProcessEnv): Pick<Config, 'poolThreads' | 'poolIdleMs'> {
  return {
    poolThreads: positiveIntFrom(
      'IBANQA_POOL_THREADS',
      env.IBANQA_POOL_THREADS,
      Math.min(availableParallelism(), limits.config.poolThreadsMax),
      limits.config.poolThreadsMax,
    ),
    poolIdleMs: positiveIntFrom(
      'IBANQA_POOL_IDLE_MS',
      env.IBANQA_POOL_IDLE_MS,
      limits.config.poolIdleMsDefault,
      limits.config.poolIdleMsMax,
    ),
  };
}

function leaseTtlMsFrom(raw: string | undefined): number {
  return positiveIntFrom('IBANQA_LEASE_TTL_MS', raw, limits.leases.ttlMs, limits.leases.ttlMsMax);
}

export function loadConfig(env: NodeJS.ProcessEnv, overrides: ConfigOverrides = {}): Config {
  const config: Config = {
    host: overrides.host ?? env.IBANQA_HOST ?? '127.0.0.1',
    httpPort: overrides.httpPort ?? portFrom('IBANQA_PORT', env.IBANQA_PORT ?? env.PORT, 8080),
    grpcPort: overrides.grpcPort ?? portFrom('IBANQA_GRPC_PORT', env.IBANQA_GRPC_PORT, 50051),
    dataDir: resolve(overrides.dataDir ?? env.IBANQA_DATA_DIR ?? 'var'),
    databaseUrl: databaseUrlFrom(overrides.databaseUrl ?? env.IBANQA_DATABASE_URL),
    ledgerDurability: ledgerDurabilityFrom(env.IBANQA_LEDGER_DURABILITY),
    leaseTtlMs: leaseTtlMsFrom(env.IBANQA_LEASE_TTL_MS),
    ...poolFrom(env),
    httpThreads: positiveIntFrom(
      'IBANQA_HTTP_THREADS',
      env.IBANQA_HTTP_THREADS,
      1,
      frontThreadLimits.threadsMax,
    ),
    frontSettings: Object.freeze({
      trustedProxies: env.IBANQA_TRUSTED_PROXIES ?? '',
      trustEveryProxy: env.IBANQA_TRUST_PROXY === '1' || env.IBANQA_TRUST_PROXY === 'true',
      corsOrigins: env.IBANQA_CORS_ORIGINS,
      observedStatusesDir:
        env.IBANQA_OBSERVED_STATUSES_DIR === undefined || env.IBANQA_OBSERVED_STATUSES_DIR === ''
          ? undefined
          : resolve(env.IBANQA_OBSERVED_STATUSES_DIR),
    }),
    poolThresholdRows: positiveIntFrom(
      'IBANQA_POOL_THRESHOLD_ROWS',
      env.IBANQA_POOL_THRESHOLD_ROWS,
      defaultPoolThresholdRows,
      1_000_000,
    ),
    logLevel: logLevelFrom(env.IBANQA_LOG_LEVEL),
    ...trustedProxiesFrom(env),
    cors:
      env.IBANQA_CORS_ORIGINS === undefined ? corsOff : parseCorsOrigins(env.IBANQA_CORS_ORIGINS),
    usDirectoryFiles: Object.freeze(parseDirectoryFilesSetting(env[usDirectoryFilesEnv] ?? '')),
    aiProfile: aiProfileFrom(env),
    signingKeyFile:
      env.IBANQA_SIGNING_KEY_FILE === undefined || env.IBANQA_SIGNING_KEY_FILE === ''
        ? null
        : resolve(env.IBANQA_SIGNING_KEY_FILE),
    manifestSigning: onOffFrom('IBANQA_MANIFEST_SIGNING', env.IBANQA_MANIFEST_SIGNING),
    statementRetentionSeconds: positiveIntFrom(
      'IBANQA_STATEMENT_RETENTION_SECONDS',
      env.IBANQA_STATEMENT_RETENTION_SECONDS,
      defaultStatementRetentionSeconds,
      limits.config.statementRetentionSecondsMax,
    ),
    statementRegion:
      env.IBANQA_STATEMENT_REGION === undefined || env.IBANQA_STATEMENT_REGION === ''
        ? 'not declared (set IBANQA_STATEMENT_REGION)'
        : env.IBANQA_STATEMENT_REGION,
    statementKeyHex: statementKeyFrom(env.IBANQA_STATEMENT_KEY),
  };
  return Object.freeze(config);
}
