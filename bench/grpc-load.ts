import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { spawnTs, waitForOutput, type Child } from './lib/child.js';
import { startIbanqa, type IbanqaProcess } from './lib/ibanqa-process.js';
import {
  coresUsed,
  machineCoresBetween,
  machineCpu,
  procCpuSeconds,
  procMemory,
  type ProcMemory,
} from './lib/proc.js';
import { round, writeResult } from './lib/results.js';

/**
 * The issue: ValidateStream with 1,000-IBAN batches, N batches in flight per stream, 10 s measured.
 * Window 32 (BENCH_GRPC_WINDOW overrides): with 8 the stream was latency-bound here (~0.74 M IBANs/s,
 * neither side busy); 32 batches are ~0.8 MB in flight per stream, and the server's HTTP/2 receive window
 * (limits.grpcReceiveWindowBytes, 1 MiB; Node's default is 64 KiB) lets about that much travel unread.
 * Shapes: 1 process, 2 processes (one grpc-js client may saturate first), and 1 process with
 * 4 streams on 4 connections (separates "client CPU" from "flow-control window" as the limit).
 */
export const grpcSettings = {
  batchSize: 1_000,
  window: Number(process.env.BENCH_GRPC_WINDOW ?? 32),
  warmupSeconds: 2,
  seconds: 10,
  /** [client processes, streams (connections) per process]. */
  shapes: [
    [1, 1],
    [2, 1],
    [1, 4],
  ],
} as const;
export const grpcTargets = { ibansPerSecond: 1_000_000 } as const;

interface ClientReport {
  readonly client: number;
  readonly batches: number;
  readonly ibans: number;
  readonly validIbans: number;
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly error: string | null;
}

export interface GrpcRun {
  readonly clientProcesses: number;
  readonly streamsPerProcess: number;
  readonly ibansPerSec: number;
  readonly batchesPerSec: number;
  readonly validShare: number;
  /** Per client process: CPU in cores over the measured window. */
  readonly clientCores: readonly number[];
  readonly serverCores: number;
  /** Whole machine over the server's metered window: all busy CPU, and hypervisor steal. */
  readonly machineBusyCores: number;
  readonly stealCores: number;
  readonly errors: readonly string[];
  readonly serverMemoryAfter: ProcMemory;
}

export interface GrpcResult {
  readonly settings: typeof grpcSettings;
  readonly loadAverageAtStart: readonly number[];
  readonly runs: readonly GrpcRun[];
}

/** Clients stop sending at warm-up + measure; this is how long they get to drain and report. */
const clientReportGraceMs = 20_000;

/** Server and machine CPU from the moment every client left its warm-up, for the measured seconds. */
async function meterServer(
  service: IbanqaProcess,
  clients: readonly Child[],
): Promise<{ serverCores: number; busyCores: number; stealCores: number }> {
  await Promise.all(clients.map((child) => waitForOutput(child, /^GRPCMEASURE$/m)));
  const cpuBefore = procCpuSeconds(service.child.pid);
  const machineBefore = machineCpu();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, grpcSettings.seconds * 1000));
  const wallSeconds = (performance.now() - started) / 1000;
  const machine = machineCoresBetween(machineBefore, machineCpu(), wallSeconds);
  return {
    serverCores: coresUsed(cpuBefore, procCpuSeconds(service.child.pid), wallSeconds),
    ...machine,
  };
}

async function runClients(
  service: IbanqaProcess,
  processes: number,
  streams: number,
): Promise<GrpcRun> {
  const { warmupSeconds, seconds, window, batchSize } = grpcSettings;
  const clients: Child[] = [];
  try {
    for (let index = 0; index < processes; index++) {
      const args = [
        service.grpcPort,
        service.unlimitedKey,
        warmupSeconds,
        seconds,
        window,
        batchSize,
        index,
        streams,
      ].map(String);
      clients.push(spawnTs('bench/lib/grpc-client.ts', args));
    }
    const metered = await meterServer(service, clients);
    const timeout = (warmupSeconds + seconds) * 1000 + clientReportGraceMs;
    const reports = await Promise.all(
      clients.map(
        async (child) =>
          JSON.parse(
            (await waitForOutput(child, /^GRPCJSON (.*)$/m, timeout))[1] ?? '{}',
          ) as ClientReport,
      ),
    );
    const sum = (of: (report: ClientReport) => number) =>
      reports.reduce((total, report) => total + of(report), 0);
    const total = sum((report) => report.ibans);
    return {
      clientProcesses: processes,
      streamsPerProcess: streams,
      ibansPerSec: Math.round(sum((report) => report.ibans / report.seconds)),
      batchesPerSec: Math.round(sum((report) => report.batches / report.seconds)),
      validShare: total > 0 ? round(sum((report) => report.validIbans) / total, 4) : 0,
      clientCores: reports.map((report) => round(report.cpuSeconds / report.seconds, 2)),
      serverCores: round(metered.serverCores, 2),
      machineBusyCores: metered.busyCores,
      stealCores: metered.stealCores,
      errors: reports.flatMap((report) => (report.error === null ? [] : [report.error])),
      serverMemoryAfter: procMemory(service.child.pid),
    };
  } finally {
    await Promise.all(clients.map((child) => child.stop()));
  }
}

export async function runGrpcLoad(log: (line: string) => void = console.log): Promise<GrpcResult> {
  const loadAverageAtStart = loadavg().map((value) => round(value, 2));
  const service = await startIbanqa();
  const runs: GrpcRun[] = [];
  try {
    for (const [processes, streams] of grpcSettings.shapes) {
      log(
        `grpc: ${processes} client process(es) x ${streams} stream(s), window ${grpcSettings.window} x ${grpcSettings.batchSize} IBANs, ${grpcSettings.seconds} s`,
      );
      runs.push(await runClients(service, processes, streams));
    }
  } finally {
    await service.stop();
  }
  return { settings: grpcSettings, loadAverageAtStart, runs };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await runGrpcLoad();
  console.log(JSON.stringify(result, null, 2));
  console.log(`wrote ${writeResult('grpc-load', result)}`);
}
