/** The promise every commit of one event-loop turn waits on, and the one function that settles it when the turn's write ends. */
export interface BatchSettlement {
  readonly written: Promise<void>;
  /** Resolves `written`, or rejects it with `error` (wrapped in an Error with `failure` when it is not one). */
  readonly settle: (error?: unknown) => void;
}

export function batchSettlement(failure: string): BatchSettlement {
  let settle: (error?: unknown) => void = () => undefined;
  const written = new Promise<void>((resolve, reject) => {
    settle = (error) =>
      error === undefined
        ? resolve()
        : reject(error instanceof Error ? error : new Error(failure, { cause: error }));
  });
  return { written, settle };
}
