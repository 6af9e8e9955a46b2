import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';

/** The facts a reader needs to compare our figures with theirs (RESULTS.md header). */
export interface MachineFacts {
  readonly nproc: number;
  readonly cpuModel: string;
  readonly cpuMhz: number | null;
  readonly ramGiB: number;
  readonly node: string;
  readonly platform: string;
  readonly wrk: string | null;
  /** HEAD of the checkout and how many paths differ from it (helpers edit the tree while benches run). */
  readonly commit: string | null;
  readonly changedPaths: number | null;
  readonly measuredAt: string;
}

function cpuInfoField(name: string): string | undefined {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((candidate) => candidate.startsWith(name));
    return line?.split(':')[1]?.trim();
  } catch {
    return undefined;
  }
}

/** Path of wrk when Debian's package is installed; the REST driver runs it as a second client then. */
export function wrkPath(): string | null {
  try {
    return execFileSync('sh', ['-c', 'command -v wrk'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/** Read-only git queries; null outside a checkout. */
function git(args: readonly string[]): string | null {
  try {
    return execFileSync('git', args, {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return null;
  }
}

const bytesPerGiB = 1024 ** 3;

export function machineFacts(): MachineFacts {
  const mhz = Number(cpuInfoField('cpu MHz'));
  return {
    nproc: availableParallelism(),
    cpuModel: cpuInfoField('model name') ?? 'unknown',
    cpuMhz: Number.isFinite(mhz) && mhz > 0 ? Math.round(mhz) : null,
    ramGiB: Math.round((totalmem() / bytesPerGiB) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    wrk: wrkPath(),
    commit: git(['rev-parse', '--short', 'HEAD']),
    // The bench's own outputs change as it runs; only other changes mean the measured tree is not the commit.
    changedPaths:
      git([
        'status',
        '--porcelain',
        '--',
        '.',
        ':(exclude)bench/results',
        ':(exclude)bench/RESULTS.md',
      ])
        ?.split('\n')
        .filter((line) => line !== '').length ?? null,
    measuredAt: new Date().toISOString(),
  };
}
