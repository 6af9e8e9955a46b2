import type { PlanId } from '../domain/plans/plans.js';

/** Who is calling, as plain data (it crosses the worker boundary with the task). */
export interface CallerView {
  readonly keyId: string | null;
  readonly plan: PlanId | null; // null: keyless
  readonly paid: boolean;
  /** A paid key whose BIC reveals are spent: the op answers with bank fields locked instead of a 429. */
  readonly revealsSpent?: true;
}
