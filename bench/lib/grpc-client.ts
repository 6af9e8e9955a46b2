/**
 * One gRPC load client process (started by bench/grpc-load.ts). Opens `streams` ValidateStream calls,
 * each on its own HTTP/2 connection, keeps `window` batches in flight per stream, counts the verdict
 * batches that arrive inside the measured window, prints one JSON line and exits.
 * Usage: grpc-client.ts <port> <api-key> <warmup-s> <measure-s> <window> <batch-size> <client-index> <streams>
 */
import { credentials, Metadata, type ClientDuplexStream } from '@grpc/grpc-js';
import { loadIbanQaPackage } from '../../src/transport/grpc/proto.js';
import { noRegistryContext } from '../../src/domain/iban/national/types.js';
import { chunks, mixedIbans } from './iban-list.js';

/** Distinct batches each client cycles through (10 x 1,000 IBANs, every country). */
const distinctBatches = 10;

interface Verdicts {
  readonly reasons?: readonly string[];
  readonly valid_count?: number;
}

type Phase = 'warmup' | 'measure' | 'drain';

const [port, apiKey, warmupSeconds, measureSeconds, window, batchSize, clientIndex, streams] =
  process.argv.slice(2);
// No registry in the client: random bank codes are unknown to any directory; the server validates with its own.
const batches = chunks(
  mixedIbans(distinctBatches * Number(batchSize), noRegistryContext),
  Number(batchSize),
);
const state = { phase: 'warmup' as Phase, batches: 0, ibans: 0, valid: 0 };

/** One stream on its own connection (a local subchannel pool per client object): streams do not share an HTTP/2 window. */
function runStream(): Promise<string | null> {
  const { service: IbanQa } = loadIbanQaPackage();
  const client = new IbanQa(`127.0.0.1:${port}`, credentials.createInsecure(), {
    'grpc.use_local_subchannel_pool': 1,
  });
  const metadata = new Metadata();
  metadata.set('x-api-key', apiKey ?? '');
  const call = (
    client as unknown as { ValidateStream(m: Metadata): ClientDuplexStream<unknown, Verdicts> }
  ).ValidateStream(metadata);
  const inFlightMax = Number(window);
  let sent = 0;
  let received = 0;
  const pump = () => {
    if (state.phase === 'drain') {
      if (received === sent) call.end();
      return;
    }
    for (; sent - received < inFlightMax; sent++)
      call.write({ ibans: batches[sent % batches.length], batch_id: String(sent) });
  };
  return new Promise((resolve) => {
    const finish = (error: string | null) => {
      client.close();
      resolve(error);
    };
    call.on('data', (verdicts: Verdicts) => {
      received++;
      if (state.phase === 'measure') {
        state.batches++;
        state.ibans += verdicts.reasons?.length ?? 0;
        state.valid += verdicts.valid_count ?? 0;
      }
      pump();
    });
    call.on('error', (error: Error) => finish(error.message));
    call.on('end', () => finish(null));
    stopHooks.push(pump);
    pump();
  });
}

/** Called when the measured window closes, so idle streams end too. */
const stopHooks: (() => void)[] = [];
let measureStart = 0;
let cpuAtStart = process.cpuUsage();
const measured = { seconds: 0, cpuSeconds: 0 };

setTimeout(
  () => {
    state.phase = 'measure';
    process.stdout.write('GRPCMEASURE\n'); // the driver starts metering the server now
    measureStart = performance.now();
    cpuAtStart = process.cpuUsage();
  },
  Number(warmupSeconds) * 1000,
);

setTimeout(
  () => {
    const cpu = process.cpuUsage(cpuAtStart);
    measured.cpuSeconds = (cpu.user + cpu.system) / 1e6;
    measured.seconds = (performance.now() - measureStart) / 1000;
    state.phase = 'drain';
    for (const hook of stopHooks) hook();
  },
  (Number(warmupSeconds) + Number(measureSeconds)) * 1000,
);

const errors = (await Promise.all(Array.from({ length: Number(streams) }, runStream))).filter(
  (error) => error !== null,
);
const report = {
  client: Number(clientIndex),
  batches: state.batches,
  ibans: state.ibans,
  validIbans: state.valid,
  seconds: measured.seconds,
  cpuSeconds: measured.cpuSeconds,
  error: errors.length === 0 ? null : errors.join('; '),
};
process.stdout.write(`GRPCJSON ${JSON.stringify(report)}\n`);
process.exit(0);
