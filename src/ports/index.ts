/**
 * The service's mutable state, behind narrow asynchronous ports. The LMDB implementations live in
 * src/accounts (one environment per node), the PostgreSQL ones, shared by several nodes, in src/postgres; the
 * in-memory twins run the same contract.
 */
import type { Authenticator } from './accounts.js';
import type { CreditMeter } from './credits.js';
import type { IdempotencyPort } from './idempotency.js';
import type { KeylessLimiter } from './keyless.js';
import type { WatchStore } from './watches.js';

export interface StatePorts {
  readonly authenticator: Authenticator;
  readonly meter: CreditMeter;
  readonly keyless: KeylessLimiter;
  readonly idempotency: IdempotencyPort;
  readonly watches: WatchStore;
  /** Resolves when every write so far is committed (graceful stop: first, before anything slow). */
  flush(): Promise<void>;
}

export type { Account, Authenticator } from './accounts.js';
export type {
  Balance,
  Charge,
  CommittedCharge,
  CreditMeter,
  Debits,
  HeldCharge,
  KindBalance,
  Refusal,
  Reservation,
  ReserveOutcome,
} from './credits.js';
export type { Claim, IdempotencyPort, IdempotencyRequest } from './idempotency.js';
export type { KeylessLimiter, KeylessOutcome } from './keyless.js';
export type { Watch, WatchStore } from './watches.js';
