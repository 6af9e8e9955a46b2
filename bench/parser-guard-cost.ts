// What a node:net guard in front of uWS would cost: the cheapest possible guard, a byte pipe that parses
// nothing, against uWS answering directly. Any guard that parses request heads costs at least this.
// Usage: node --import tsx bench/parser-guard-cost.ts   (needs wrk: apt-get install -y wrk). 127.0.0.1 only.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import net from 'node:net';
import { uptime } from 'node:os';
import { uwsBuild } from '../src/transport/http/uws-build.js';

const seconds = Number(process.env.GUARD_BENCH_SECONDS ?? 8);
const uws = uwsBuild().module;
const app = uws.App();
const body = JSON.stringify({ status: 'ok' });
app.get('/*', (res) => {
  res.cork(() => res.writeHeader('content-type', 'application/json').end(body));
});
const direct = await new Promise<number>((resolve) =>
  app.listen('127.0.0.1', 0, (socket) => resolve(uws.us_socket_local_port(socket as never))),
);
const proxy = net.createServer((client) => {
  const upstream = net.connect(direct, '127.0.0.1');
  client.pipe(upstream).pipe(client);
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
});
const guarded = await new Promise<number>((resolve) =>
  proxy.listen(0, '127.0.0.1', () => resolve((proxy.address() as net.AddressInfo).port)),
);

/** wrk runs as a child while this process serves (a synchronous exec would block the server's loop). */
async function wrk(port: number): Promise<{ rps: number; p99: string }> {
  const { stdout: out } = await promisify(execFile)(
    'wrk',
    ['-t1', '-c32', `-d${seconds}s`, '--latency', `http://127.0.0.1:${port}/healthz`],
    { encoding: 'utf8' },
  );
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0),
    p99: /99%\s+(\S+)/.exec(out)?.[1] ?? '?',
  };
}

const results = {
  build: uwsBuild().build,
  seconds,
  loadavg: (await import('node:os')).loadavg(),
  uptime: uptime(),
  direct: await wrk(direct),
  pipe: await wrk(guarded),
  direct2: await wrk(direct),
  pipe2: await wrk(guarded),
};
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
proxy.close();
process.exit(0);
