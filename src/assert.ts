/**
 * The programmer-error channel. An assertion failure is a bug, never a client mistake:
 * transports answer it with `internal` and log it; operating errors use AppError instead.
 */
export class AssertionFailure extends Error {
  override readonly name = 'AssertionFailure';
}

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new AssertionFailure(message);
}

export function unreachable(message: string, value?: never): never {
  throw new AssertionFailure(`${message}${value === undefined ? '' : `: ${String(value)}`}`);
}
