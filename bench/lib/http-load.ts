import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

/** One POST route and the bodies to cycle through (each connection sends them in turn). */
export interface PostTarget {
  readonly port: number;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly bodies: readonly string[];
}

/** What every HTTP load client reports, whichever client measured it. */
export interface LoadFigures {
  readonly client: 'autocannon' | 'wrk';
  readonly connections: number;
  readonly seconds: number;
  readonly requests: number;
  readonly reqPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Connection errors and timeouts. */
  readonly errors: number;
  readonly non2xx: number;
  /** Client process CPU in cores over the run (autocannon only: wrk runs in a child we cannot meter). */
  readonly clientCores: number | null;
}

export async function runAutocannon(
  target: PostTarget,
  connections: number,
  seconds: number,
): Promise<LoadFigures> {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const result = await autocannon({
    url: `http://127.0.0.1:${target.port}`,
    connections,
    duration: seconds,
    requests: target.bodies.map((body) => ({
      method: 'POST' as const,
      path: target.path,
      headers: { 'content-type': 'application/json', ...target.headers },
      body,
    })),
  });
  const wallSeconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const elapsed = result.duration > 0 ? result.duration : seconds;
  return {
    client: 'autocannon',
    connections,
    seconds: elapsed,
    requests: result['2xx'] + result.non2xx,
    reqPerSec: Math.round((result['2xx'] + result.non2xx) / elapsed),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    clientCores: Math.round(((cpu.user + cpu.system) / 1e6 / wallSeconds) * 100) / 100,
  };
}

/** Lua for wrk: pre-formats one request per body at init, cycles through them, prints a JSON summary. */
function wrkScript(target: PostTarget): string {
  const headers = Object.entries({ 'Content-Type': 'application/json', ...target.headers })
    .map(([name, value]) => `["${name}"] = "${value}"`)
    .join(', ');
  const bodies = target.bodies.map((body) => `[==[${body}]==]`).join(',\n');
  return `local bodies = {\n${bodies}\n}
local prepared = {}
local counter = 0
function init(args)
  for i, body in ipairs(bodies) do
    prepared[i] = wrk.format("POST", "${target.path}", { ${headers} }, body)
  end
end
function request()
  counter = counter + 1
  return prepared[(counter % #prepared) + 1]
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRKJSON {"requests":%d,"duration_us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"p50_us":%d,"p99_us":%d}\\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
`;
}

interface WrkSummary {
  requests: number;
  duration_us: number;
  connect: number;
  read: number;
  write: number;
  status: number;
  timeout: number;
  p50_us: number;
  p99_us: number;
}

/** How long past its own -d wrk may take before we kill it. */
const wrkGraceMs = 15_000;

/** `wrk -t1 -cN -dS -s post.lua`: one C client thread, the lighter load generator. */
export async function runWrk(
  wrk: string,
  target: PostTarget,
  connections: number,
  seconds: number,
): Promise<LoadFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'ibanqa-wrk-'));
  try {
    const script = join(dir, 'post.lua');
    writeFileSync(script, wrkScript(target));
    const args = [
      '-t1',
      `-c${connections}`,
      `-d${seconds}s`,
      '-s',
      script,
      `http://127.0.0.1:${target.port}${target.path}`,
    ];
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(wrk, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      const timer = setTimeout(() => child.kill('SIGKILL'), seconds * 1000 + wrkGraceMs);
      child.once('error', reject);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(out);
      });
    });
    const line = /^WRKJSON (.*)$/m.exec(output)?.[1];
    if (line === undefined) throw new Error(`wrk printed no summary:\n${output}`);
    const summary = JSON.parse(line) as WrkSummary;
    const elapsed = summary.duration_us / 1e6;
    return {
      client: 'wrk',
      connections,
      seconds: Math.round(elapsed * 100) / 100,
      requests: summary.requests,
      reqPerSec: Math.round(summary.requests / elapsed),
      p50Ms: Math.round(summary.p50_us / 10) / 100,
      p99Ms: Math.round(summary.p99_us / 10) / 100,
      errors: summary.connect + summary.read + summary.write + summary.timeout,
      non2xx: summary.status,
      clientCores: null,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
