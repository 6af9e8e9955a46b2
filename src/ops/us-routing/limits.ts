import { assert } from '../../assert.js';
import { maxRoutingListSize } from '../../domain/routing/index.js';
import { IDEMPOTENCY_TTL_MS } from '../../accounts/idempotency-store.js';

/** Every bound of the /us/routing operations, named once with its reason. */
export const usRoutingLimits = {
  /** Spec: synthetic generation is free up to 10 rows per request on a free key ... */
  generateFreeRowsMax: 10,
  /** ... and up to 750 on paid keys (the largest targeted run, so one bound covers both). */
  generatePaidRowsMax: 750,
  /** Spec: seeds are 1 to 100 characters. */
  seedCharsMax: 100,
  /** Spec: targets limit 1-100, default 25. */
  targetsLimitMax: 100,
  targetsLimitDefault: 25,
  /** Offsets beyond any directory's size (FedACH + Fedwire hold ~26,000 rows) are refused, not scanned. */
  targetsOffsetMax: 1_000_000,
  /** Search text: the same bound as every other free-text query of the service. */
  searchQueryCharsMax: 120,
  /** check-list and quote/run routing_numbers: 10 on free keys ... */
  listFreeMax: 10,
  /** ... and the domain's list bound on paid keys (1,000: see maxRoutingListSize). */
  listPaidMax: maxRoutingListSize,
  /** A path or list value longer than this is not a routing number typed by a person: 400, not a row verdict. */
  routingInputCharsMax: 32,
  /** Spec: targeted runs of up to 150 rows on Pro ... */
  targetedProRowsMax: 150,
  /** ... and up to 750 on Business, Enterprise (and the operator's unlimited plan). */
  targetedBusinessRowsMax: 750,
  /** Spec: a request_id lives 24 hours from the Unix milliseconds it carries ... */
  requestIdLifetimeMs: IDEMPOTENCY_TTL_MS,
  /** ... and may run ahead of the server clock by at most 5 minutes (client clock skew). */
  requestIdFutureSkewMs: 5 * 60 * 1000,
  /** A full profile replays for the same key, seed and target for 24 hours (the idempotency store's TTL). */
  profileReplayMs: IDEMPOTENCY_TTL_MS,
} as const;

assert(usRoutingLimits.generateFreeRowsMax <= usRoutingLimits.generatePaidRowsMax, 'free generation within paid');
assert(usRoutingLimits.targetedProRowsMax <= usRoutingLimits.targetedBusinessRowsMax, 'Pro targeting within Business');
assert(usRoutingLimits.listFreeMax <= usRoutingLimits.listPaidMax, 'free list within paid list');
