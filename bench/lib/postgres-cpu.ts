/** CPU of PostgreSQL's processes from /proc, for benches that price what a request costs the database too. */
import { readdirSync, readFileSync } from 'node:fs';
import { procCpuSeconds } from './proc.js';

/** Every PostgreSQL server process on the machine (comm "postgres"): the server is shared. */
export function postgresPids(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
      } catch {
        return false; // exited meanwhile
      }
    })
    .map(Number);
}

/** CPU seconds so far of each process still running. */
export function cpuOf(pids: readonly number[]): Map<number, number> {
  const cpu = new Map<number, number>();
  for (const pid of pids) {
    try {
      cpu.set(pid, procCpuSeconds(pid));
    } catch {
      // ended meanwhile
    }
  }
  return cpu;
}

/**
 * CPU seconds the processes spent between two samples: a process that started in between counts whole (a pool
 * opens new PostgreSQL backends under load); one that ended in between is lost to the sum.
 */
export function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}
