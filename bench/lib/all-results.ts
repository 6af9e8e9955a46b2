// Every driver's last result file, gathered for bench/RESULTS.md (report.ts renders it, report-shortfalls.ts
// lists what missed its target).
import type { GrpcResult } from '../grpc-load.js';
import type { MicroResult } from '../micro.bench.js';
import type { PoolResult } from '../pool-threshold.js';
import type { RestProfile } from '../profile-rest.js';
import type { RestResult } from '../rest-load.js';
import type { MachineFacts } from './machine.js';
import { readResult } from './results.js';

/** When and at which commit one driver last wrote its result file (`--only` re-runs some drivers, not all). */
export interface DriverRun {
  readonly driver: string;
  readonly measuredAt: string;
  readonly commit: string | null;
  readonly changedPaths: number | null;
}

export interface AllResults {
  readonly machine: MachineFacts | undefined;
  readonly runs: readonly DriverRun[];
  readonly micro: MicroResult | undefined;
  readonly rest: RestResult | undefined;
  readonly grpc: GrpcResult | undefined;
  readonly pool: PoolResult | undefined;
  readonly profile: RestProfile | undefined;
  /** Drivers that threw in this run, with the message. */
  readonly failures: Readonly<Record<string, string>>;
}

export function loadAll(failures: Readonly<Record<string, string>> = {}): AllResults {
  const micro = readResult<MicroResult>('micro');
  const rest = readResult<RestResult>('rest-load');
  const grpc = readResult<GrpcResult>('grpc-load');
  const pool = readResult<PoolResult>('pool-threshold');
  const profile = readResult<RestProfile>('rest-profile');
  const machine = (micro ?? rest ?? grpc ?? pool ?? profile)?.machine;
  const named: [string, { machine: MachineFacts } | undefined][] = [
    ['micro-benchmarks', micro],
    ['REST load', rest],
    ['gRPC load', grpc],
    ['pool threshold', pool],
    ['REST profile', profile],
  ];
  const runs = named.flatMap(([driver, file]) =>
    file === undefined
      ? []
      : [
          {
            driver,
            measuredAt: file.machine.measuredAt,
            commit: file.machine.commit,
            changedPaths: file.machine.changedPaths,
          },
        ],
  );
  return {
    machine,
    runs,
    micro: micro?.data,
    rest: rest?.data,
    grpc: grpc?.data,
    pool: pool?.data,
    profile: profile?.data,
    failures,
  };
}
