/**
 * The service's one clock. startService takes one (the system clock unless a caller pins it) and hands the same
 * one to everything that reads time: the ledger and usage reader, the op contexts, idempotency, the statement
 * reviews and, with each pooled task, the worker's context. Tests pin it to check dates end to end.
 */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
