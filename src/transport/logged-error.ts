import type { Logger } from 'pino';
import { toAppError, type AppError } from '../errors.js';

/**
 * The AppError a failed call is answered with. A bug (anything not an AppError) becomes `internal` and is logged
 * here, once, with what identifies the call (request id, operation), where the front answers it.
 */
export function answeredError(
  thrown: unknown,
  logger: Logger,
  call: Readonly<Record<string, string>>,
): AppError {
  const error = toAppError(thrown);
  if (error.code === 'internal')
    logger.error({ err: error.cause ?? thrown, ...call }, 'internal error');
  return error;
}
