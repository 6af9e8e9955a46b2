import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { execFileSync } from 'node:child_process';

/** Resident memory of another process, from /proc/<pid>/status (kB there, MiB here). */
export interface ProcMemory {
  readonly rssMiB: number;
  /** Peak resident set (VmHWM) since the process started. */
  readonly hwmMiB: number;
  /** The resident set by kind: anonymous (heaps, malloc), file-backed (code, LMDB's memory map), shared memory. */
  readonly anonMiB: number;
  readonly fileMiB: number;
  readonly shmemMiB: number;
}

const kibPerMib = 1024;

function statusField(status: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match?.[1] === undefined ? Number.NaN : Number(match[1]) / kibPerMib;
}

export function procMemory(pid: number): ProcMemory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Math.round(statusField(status, name));
  return {
    rssMiB: field('VmRSS'),
    hwmMiB: field('VmHWM'),
    anonMiB: field('RssAnon'),
    fileMiB: field('RssFile'),
    shmemMiB: field('RssShmem'),
  };
}

/** OS threads of another process (main, V8 and libuv helpers, and one per worker thread: pool, OCR, fronts). */
export function procThreads(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? Number.NaN);
}

let clockTicks: number | undefined;

/** USER_HZ for /proc/<pid>/stat (100 on every Linux we know, but ask). */
function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** User + system CPU seconds of a process, all its threads included (fields 14 and 15 of /proc/<pid>/stat). */
export function procCpuSeconds(pid: number): number {
  return statCpuSeconds(`/proc/${pid}/stat`);
}

/** user + system CPU seconds of a /proc stat file (a process's, or one thread's under task/). */
function statCpuSeconds(path: string): number {
  const stat = readFileSync(path, 'utf8');
  // The command name (field 2) may contain spaces; fields after its closing parenthesis are fixed.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const user = Number(fields[11]);
  const system = Number(fields[12]);
  return (user + system) / ticksPerSecond();
}

/**
 * CPU seconds so far of each thread of a process, by thread id (its main thread's id is the pid). Read from
 * /proc/<pid>/task/<tid>/stat: /proc/<tid>/stat counts the whole process whichever thread names it.
 */
export function threadCpuSeconds(pid: number): Map<number, number> {
  const threads = new Map<number, number>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      threads.set(Number(task), statCpuSeconds(`/proc/${pid}/task/${task}/stat`));
    } catch {
      // ended meanwhile
    }
  }
  return threads;
}

/** A port the kernel just handed out on 127.0.0.1 (closed again, so a child can bind it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** CPU busy share of a process over a window, in cores (1.0 = one core fully used). */
export function coresUsed(
  cpuSecondsBefore: number,
  cpuSecondsAfter: number,
  wallSeconds: number,
): number {
  return wallSeconds > 0 ? (cpuSecondsAfter - cpuSecondsBefore) / wallSeconds : 0;
}

/** Whole-machine CPU seconds since boot from /proc/stat: busy (user..softirq) and steal (taken by the hypervisor). */
export interface MachineCpu {
  readonly busySeconds: number;
  readonly stealSeconds: number;
}

export function machineCpu(): MachineCpu {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
  // cpu  user nice system idle iowait irq softirq steal ...
  const [user, nice, system, , , irq, softirq, steal] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const busy = (user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0);
  return { busySeconds: busy / ticksPerSecond(), stealSeconds: (steal ?? 0) / ticksPerSecond() };
}

/** Machine busy and steal, in cores, between two samples `wallSeconds` apart. */
export function machineCoresBetween(
  before: MachineCpu,
  after: MachineCpu,
  wallSeconds: number,
): { busyCores: number; stealCores: number } {
  const cores = (seconds: number) =>
    Math.round((wallSeconds > 0 ? seconds / wallSeconds : 0) * 100) / 100;
  return {
    busyCores: cores(after.busySeconds - before.busySeconds),
    stealCores: cores(after.stealSeconds - before.stealSeconds),
  };
}
