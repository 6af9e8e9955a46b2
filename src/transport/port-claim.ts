import { createServer } from 'node:net';
import { portHolder } from './port-holder.js';

/** Which front a port belongs to, and the setting that moves it (named in the refusal). */
export interface PortUse {
  readonly front: 'REST' | 'gRPC';
  readonly host: string;
  readonly port: number;
  readonly setting: string;
}

/** A front's port is held by another socket: start-up stops with this one line. */
export class PortInUseError extends Error {
  constructor(readonly use: PortUse) {
    super(portInUseMessage(use));
    this.name = 'PortInUseError';
  }
}

export function portInUseMessage(use: PortUse): string {
  const holder = portHolder(use.port);
  const who =
    holder === undefined
      ? 'by another process'
      : `by pid ${holder.pid}${holder.command === '' ? '' : ` (${holder.command})`}`;
  return `${use.front} port ${use.host}:${use.port} is already in use ${who}; stop it or choose another port (${use.setting})`;
}

/**
 * Refuses a port another socket listens on, before anything is opened. A plain bind (no SO_REUSEPORT) fails on
 * a port held by any listener, SO_REUSEPORT ones included, which is what a second ibanqa on the same port
 * would otherwise join silently. The fronts then listen exclusively themselves, so a race between two starts
 * still ends in a refusal, not a shared port.
 */
export async function assertPortFree(use: PortUse): Promise<void> {
  if (use.port === 0) return;
  const probe = createServer();
  const failure = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
    probe.once('error', resolve);
    probe.listen({ host: use.host, port: use.port, exclusive: true }, () => resolve(undefined));
  });
  if (failure === undefined) {
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    return;
  }
  if (failure.code === 'EADDRINUSE') throw new PortInUseError(use);
  throw failure;
}

/** uWS reports a failed listen without a reason: a port with a visible holder is in use, else say both causes. */
export function listenFailure(use: PortUse): Error {
  if (use.port !== 0 && portHolder(use.port) !== undefined) return new PortInUseError(use);
  return new Error(
    `${use.front} front could not listen on ${use.host}:${use.port}: the port is in use or the address is not local (${use.setting})`,
  );
}
