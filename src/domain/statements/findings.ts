import type { CheckContext } from './check-context.js';
import { signalCatalogue, type Evidence, type Signal, type SignalCode } from './signals.js';

/** Whether a check ran: passed, failed, or not_checked with the reason (a report never skips one silently). */
export interface CheckStatus {
  readonly check: string;
  readonly status: 'passed' | 'failed' | 'not_checked';
  readonly reason?: string;
}

/** Collects findings; one signal per code, its evidence capped, its occurrences counted. */
export class Findings {
  private readonly statuses: CheckStatus[] = [];

  private readonly byCode = new Map<
    SignalCode,
    { message: string; evidence: Evidence[]; occurrences: number }
  >();

  constructor(private readonly context: CheckContext) {}

  add(code: SignalCode, message: string, evidence: readonly Evidence[] = []): void {
    const entry = this.byCode.get(code) ?? { message, evidence: [], occurrences: 0 };
    entry.occurrences += 1;
    for (const item of evidence) {
      if (entry.evidence.length >= this.context.evidencePerCodeMax) break;
      entry.evidence.push({
        page: item.page,
        text: item.text.slice(0, this.context.evidenceCharsMax),
      });
    }
    this.byCode.set(code, entry);
  }

  ran(check: string, passed: boolean): void {
    this.statuses.push({ check, status: passed ? 'passed' : 'failed' });
  }

  notChecked(check: string, reason: string): void {
    this.statuses.push({ check, status: 'not_checked', reason });
  }

  checks(): CheckStatus[] {
    return [...this.statuses];
  }

  has(code: SignalCode): boolean {
    return this.byCode.has(code);
  }

  signals(): Signal[] {
    return [...this.byCode].map(([code, entry]) => ({
      code,
      severity: signalCatalogue[code].severity,
      message:
        entry.occurrences > 1
          ? `${entry.message} (${entry.occurrences} occurrences)`
          : entry.message,
      evidence: entry.evidence,
      occurrences: entry.occurrences,
    }));
  }
}

export const at = (found: { page: number; text: string }): Evidence => ({
  page: found.page,
  text: found.text,
});
