import type { HeldCharge } from './credits.js';

/** What an operation derives from a request: which record it claims and what makes a request "the same". */
export interface IdempotencyRequest {
  /** Unique per key id, e.g. 'us.routing.run|<request_id>'. */
  readonly key: string;
  /** Hash of the canonical request; the same key with another fingerprint is a 409 conflict. */
  readonly fingerprint: string;
  readonly expiresAt: Date;
  /** Names the key in the conflict message, e.g. 'request_id 1700000000000-...'. */
  readonly label: string;
}

/** A replay (saved or in flight) or the leader, which must complete or abandon exactly once. */
export type Claim =
  | { readonly kind: 'replay'; readonly result: Promise<unknown> }
  | {
      readonly kind: 'leader';
      /**
       * Saves the result and commits the run's charge (CreditMeter.charge of its reservation) in ONE transaction:
       * resolves when both are durable, so a replay after a crash finds a result that was paid for exactly once.
       * Rejects when neither was written: the charge is then refunded, the claim abandoned with the error (its
       * followers fail, the key is free again), and the caller settles nothing more.
       */
      complete(result: unknown, now: Date, charge?: HeldCharge): Promise<void>;
      abandon(error: unknown): void;
    };

/**
 * Saved results of operations that must not run (or debit) twice. Claims of one (key id, key) are
 * serialized: exactly one leader runs; the rest replay its result. Rejects with AppError conflict
 * when the key was used with another fingerprint.
 */
export interface IdempotencyPort {
  claim(keyId: string, request: IdempotencyRequest, now: Date): Promise<Claim>;
}
