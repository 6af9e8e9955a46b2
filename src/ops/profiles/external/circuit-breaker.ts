/**
 * Stops calling a provider that keeps failing: after `failuresToOpen` consecutive failures the circuit opens and
 * calls fail at once for `openMs`; then one trial call is let through (half-open): success closes the circuit,
 * failure opens it again. The clock is injected so tests need not sleep.
 */
export class CircuitBreaker {
  private failures = 0;
  private openedAt: number | null = null;
  private trialInFlight = false;

  constructor(
    private readonly failuresToOpen: number,
    private readonly openMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  get state(): 'closed' | 'open' | 'half_open' {
    if (this.openedAt === null) return 'closed';
    return this.clock() - this.openedAt >= this.openMs ? 'half_open' : 'open';
  }

  /** Whether a call may go out now; in half-open state only one trial at a time. */
  tryAcquire(): boolean {
    const state = this.state;
    if (state === 'closed') return true;
    if (state === 'open' || this.trialInFlight) return false;
    this.trialInFlight = true;
    return true;
  }

  succeeded(): void {
    this.failures = 0;
    this.openedAt = null;
    this.trialInFlight = false;
  }

  failed(): void {
    this.trialInFlight = false;
    this.failures += 1;
    if (this.openedAt !== null || this.failures >= this.failuresToOpen)
      this.openedAt = this.clock();
  }

  /** Milliseconds until a trial call is allowed (0 when closed or half-open). */
  retryAfterMs(): number {
    return this.openedAt === null ? 0 : Math.max(0, this.openMs - (this.clock() - this.openedAt));
  }
}
