import { AppError } from '../errors.js';

/**
 * The keyless 429: the message states the numbers the headers carry (X-RateLimit-Remaining,
 * X-RateLimit-Reset, Retry-After are written from `remaining` and `resets_at`). A request for more than
 * is left is refused whole, so "used up" is said only when nothing is left.
 */
export function keylessRefusal(
  outcome: { readonly remaining: number; readonly resets_at: string },
  requested: number,
): AppError {
  const state =
    outcome.remaining === 0
      ? 'Keyless daily allowance for this IP is used up'
      : `Keyless daily allowance for this IP has ${outcome.remaining} IBAN${outcome.remaining === 1 ? '' : 's'} left, this request needs ${requested}`;
  return new AppError('rate_limited', `${state}; it resets at ${outcome.resets_at}`, {
    remaining: outcome.remaining,
    resets_at: outcome.resets_at,
  });
}
