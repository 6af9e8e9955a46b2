/**
 * Debian's nginx (/usr/sbin/nginx, package nginx-light) as a load balancer in front of service processes: run as
 * the test's own child in the foreground (`daemon off`), its configuration, pid, logs and temp files in a temp
 * directory, listening on a free loopback port. Round robin over the upstreams, HTTP/1.1 with keep-alive to them
 * (README, "Running a cluster", says why uWS needs 1.1), and the upstream that answered in X-Upstream.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../bench/lib/proc.js';

export const nginxPath = '/usr/sbin/nginx';

export interface Nginx {
  /** The balanced REST base, http://127.0.0.1:<port>/api/v1. */
  readonly base: string;
  readonly config: string;
  stop(): Promise<void>;
}

/** The configuration README shows, with the paths and ports of one run. */
export function nginxConfig(dir: string, port: number, upstreams: readonly string[]): string {
  return `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream ibanqa {
${upstreams.map((address) => `    server ${address};`).join('\n')}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://ibanqa;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

async function waitUntilServing(base: string, log: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await fetch(base.replace('/api/v1', '/healthz'));
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`nginx did not start:\n${log()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Starts nginx in front of `upstreams` (host:port each). */
export async function startNginx(upstreams: readonly string[]): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), 'ibanqa-nginx-'));
  const port = await freePort();
  const config = nginxConfig(dir, port, upstreams);
  writeFileSync(join(dir, 'nginx.conf'), config);
  // -e: the error log before the configuration is read (the default, /var/log/nginx, may not be writable).
  const child = spawn(
    nginxPath,
    ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM'); // fast shutdown of the master and its worker
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}/api/v1`;
  try {
    await waitUntilServing(base, () => {
      let log = '';
      try {
        log = readFileSync(join(dir, 'error.log'), 'utf8');
      } catch {
        // not written yet
      }
      return `${stderr}\n${log}`;
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, config, stop };
}
