import { createServer } from 'node:net';

/**
 * The port every front thread listens on. uSockets sets SO_REUSEPORT only when it is asked for a given
 * port, not for port 0 (an ephemeral port, as tests ask for): the main thread's socket would then hold the
 * port alone and every front thread's listen would fail. So port 0 becomes a free port picked here first.
 */
export async function sharedPort(host: string, port: number): Promise<number> {
  if (port !== 0) return port;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, host, resolve);
  });
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error(`no free port on ${host}`);
  return address.port;
}
