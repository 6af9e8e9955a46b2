export interface KeylessOutcome {
  readonly ok: boolean;
  /** Items this client may still use today, after this request if it was accepted. */
  readonly remaining: number;
  /** Next 00:00 UTC, when every client starts again from zero. */
  readonly resets_at: string;
}

/** The keyless daily allowance per client address: all or nothing per request, refundable. */
export interface KeylessLimiter {
  take(ip: string, items: number, now: Date): Promise<KeylessOutcome>;
  /** Gives back what a request took when it then failed. */
  refund(ip: string, items: number, now: Date): Promise<void>;
}
