import type { Logger } from 'pino';

/**
 * An exception or rejection that escapes every handler is logged and the process keeps serving: both
 * fronts share it, so one bad request must not take down the other front and every call in flight.
 * Request paths catch their own failures and log them with the request id; what reaches here came from
 * elsewhere (a timer, a library's event), and carries a request id only if something tagged the error.
 */
export function installCrashGuards(logger: Logger): () => void {
  const requestIdOf = (thrown: unknown): string | undefined => {
    const id = (thrown as { requestId?: unknown } | null)?.requestId;
    return typeof id === 'string' ? id : undefined;
  };
  const onException = (error: Error, origin: string) => {
    logger.error(
      { err: error, origin, requestId: requestIdOf(error) },
      'uncaught exception: logged, the service keeps serving',
    );
  };
  const onRejection = (reason: unknown) => {
    logger.error(
      { err: reason, requestId: requestIdOf(reason) },
      'unhandled rejection: logged, the service keeps serving',
    );
  };
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  return () => {
    process.off('uncaughtException', onException);
    process.off('unhandledRejection', onRejection);
  };
}
