// Every thread answers from the same registry version: after an import into a running service, a request
// large enough for the worker pool gives the same rows as the same request answered inline.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { composeIBAN } from 'ibantools';
import { readFixture } from '../fixtures/registry/paths.js';
import { importIntoRegistry } from '../helpers/registry-import.js';
import { call, startTestService, type TestService } from '../helpers/service.js';

const poolThresholdRows = 50;
let service: TestService;

before(async () => {
  service = await startTestService({
    env: { IBANQA_POOL_THRESHOLD_ROWS: String(poolThresholdRows) },
  });
});
after(() => service.dispose());

/** IBANs at the synthetic Bundesbank fixture's bank 99999901, built with ibantools (an independent mod 97). */
function fixtureBankIbans(count: number): string[] {
  return Array.from({ length: count }, (_, index) => {
    const iban = composeIBAN({
      countryCode: 'DE',
      bban: `99999901${String(1_000_000 + index * 7_919).padStart(10, '0')}`,
    });
    assert.ok(iban !== null);
    return iban;
  });
}

async function validate(ibans: readonly string[]): Promise<unknown[]> {
  const reply = await call(service.base, '/validate', {
    key: service.keys.business,
    body: { ibans },
  });
  assert.equal(reply.status, 200, reply.text);
  return reply.body as unknown[];
}

test('after an import into the running service, pooled and inline answers agree row for row', async () => {
  const pooledBody = fixtureBankIbans(100);
  const ibans = pooledBody.slice(0, 40);
  assert.ok(
    pooledBody.length >= poolThresholdRows && ibans.length < poolThresholdRows,
    'one request inline, one pooled',
  );
  // Warm both paths on the registry as it is, so the workers hold their view before the import.
  const inlineBefore = await validate(ibans);
  assert.deepEqual((await validate(pooledBody)).slice(0, 40), inlineBefore);

  await importIntoRegistry(service.dataDir, [
    {
      file: {
        sourceId: 'bundesbank-blz',
        bytes: readFixture('bundesbank-synthetic-latin1.txt'),
        fileName: 'bundesbank-synthetic.txt',
        snapshotDate: '2026-01-01',
      },
    },
  ]);

  const inlineAfter = await validate(ibans);
  assert.notDeepEqual(
    inlineAfter,
    inlineBefore,
    'the import changes what validation says about the fixture bank',
  );
  const pooledAfter = await validate(pooledBody);
  assert.deepEqual(
    pooledAfter.slice(0, 40),
    inlineAfter,
    'the pool answers from the same registry version',
  );
});
