// What is rarely used starts on demand and is released when idle: after start the service runs no pool thread;
// the first request large enough for the pool starts one and answers exactly as the same rows answered inline;
// after IBANQA_POOL_IDLE_MS without pooled work the thread is gone, and the next pooled request starts one again.
// Not a timing test: the idle time is short so the test is quick, and the release is awaited, not timed.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { composeIBAN, isValidIBAN } from 'ibantools';
import { call, startTestService, type TestService } from '../helpers/service.js';

const poolThresholdRows = 50;
/** Long enough that a thread is still there when its answer arrives, even on a busy machine. */
const poolIdleMs = 3_000;
/** How long the release may take at most before the test fails (thread exit is asynchronous). */
const releaseWithinMs = 60_000;

let service: TestService;

before(async () => {
  service = await startTestService({
    env: {
      IBANQA_POOL_THRESHOLD_ROWS: String(poolThresholdRows),
      IBANQA_POOL_IDLE_MS: String(poolIdleMs),
    },
  });
});
after(() => service.dispose());

/** German IBANs built with ibantools (an independent mod 97) at real Bundesbank codes of the embedded registry. */
function germanIbans(count: number): string[] {
  const banks = ['10010010', '37040044', '50010517', '20041111'];
  return Array.from({ length: count }, (_, index) => {
    const iban = composeIBAN({
      countryCode: 'DE',
      bban: `${banks[index % banks.length]}${String(1_000_003 + index * 7_919).padStart(10, '0')}`,
    });
    assert.ok(iban !== null && isValidIBAN(iban));
    return iban;
  });
}

async function validate(ibans: readonly string[]): Promise<{ iban: string }[]> {
  const reply = await call(service.base, '/validate', {
    key: service.keys.business,
    body: { ibans },
  });
  assert.equal(reply.status, 200, reply.text);
  return reply.body as { iban: string }[];
}

/** The same rows in requests below the threshold: answered on the main thread. */
async function inlineAnswers(ibans: readonly string[]): Promise<{ iban: string }[]> {
  const rows = [];
  for (let start = 0; start < ibans.length; start += 10)
    rows.push(...(await validate(ibans.slice(start, start + 10))));
  return rows;
}

async function released(): Promise<void> {
  const deadline = Date.now() + releaseWithinMs;
  while (service.running.poolThreads() > 0) {
    assert.ok(Date.now() < deadline, `pool threads still running ${releaseWithinMs} ms after idle`);
    await sleep(100);
  }
}

test('no pool thread runs after start; the first pooled request starts one and answers as inline', async () => {
  assert.equal(service.running.poolThreads(), 0, 'no pool thread before pooled work');
  const ibans = germanIbans(poolThresholdRows);
  const inline = await inlineAnswers(ibans);
  assert.equal(service.running.poolThreads(), 0, 'inline requests start no thread');
  const pooled = await validate(ibans);
  assert.ok(service.running.poolThreads() >= 1, 'the pooled request started a thread');
  assert.deepEqual(pooled, inline);
  assert.deepEqual(
    pooled.map((row) => row.iban),
    ibans,
  );
});

test('an idle pool thread is released, and the next pooled request starts one again', async () => {
  await released();
  const ibans = germanIbans(poolThresholdRows * 2);
  const again = await validate(ibans);
  assert.ok(service.running.poolThreads() >= 1, 'pooled work started a thread again');
  assert.deepEqual(again, await inlineAnswers(ibans));
  await released();
});
