/** The accounts layer: plans, API keys, the account store, the credit meter and the keyless limit. */
export {
  AccountStore,
  type Account,
  type CreatedKey,
  type KeyInfo,
  type SubDatabaseName,
} from './account-store.js';
export { KEY_PREFIX, generateRawKey, hashKey, isWellFormedKey, keyIdOf } from './keys.js';
export { KeylessLimit, clientKeyOf, type KeylessResult } from './keyless-limit.js';
export {
  Meter,
  type Balance,
  type Debits,
  type KindBalance,
  type Refusal,
  type Reservation,
  type ReserveResult,
} from './meter.js';
export {
  assertActive,
  calendarMonthOf,
  expiresAtOf,
  isExpired,
  periodOf,
  type Activation,
  type Period,
} from './periods.js';
export {
  PASS_DURATION_MS,
  creditKinds,
  isPlanAtLeast,
  isPlanId,
  planIds,
  planOf,
  type Allowances,
  type CreditKind,
  type Plan,
  type PeriodKind,
  type PlanId,
} from '../domain/plans/plans.js';
