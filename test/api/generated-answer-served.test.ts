// Served /generate and /bulk-dataset JSON (written in one pass, inline and in a pool worker) equals, byte for byte,
// JSON.stringify of the general path's output computed here from the same seed over the service's own registry.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AnyOp, CallerView } from '../../src/contract/op.js';
import type { PlanId } from '../../src/domain/plans/plans.js';
import { compileInputValidator } from '../../src/ops/framework/input-validation.js';
import { ibanBulkDataset } from '../../src/ops/iban/bulk-dataset.js';
import { ibanGenerate } from '../../src/ops/iban/generate.js';
import { loadBankDirectory } from '../../src/registry/load-directory.js';
import { ContextFactory } from '../../src/service/context.js';
import { requestKeyFor } from '../../src/service/request-key.js';
import { call, startTestService, type TestService } from '../helpers/service.js';

/** Requests of at least this many rows run in a pool worker, which then renders the JSON itself. */
const poolThresholdRows = 20;

let service: TestService;
let contexts: ContextFactory;

before(async () => {
  service = await startTestService({
    env: { IBANQA_POOL_THRESHOLD_ROWS: String(poolThresholdRows) },
  });
  const bank = loadBankDirectory(service.dataDir);
  contexts = new ContextFactory(
    { bank },
    () => {
      throw new Error('these rows read no clock');
    },
    'test',
  );
});
after(() => service.dispose());

/** The general path's output for a seeded request, as the service's caller of `plan` would get it. */
async function generalOutput(op: AnyOp, raw: Record<string, unknown>, plan: PlanId) {
  const input = compileInputValidator(op)(raw);
  const requestKey = requestKeyFor(
    op.keyScope ?? op.name,
    op.seedOf?.(input),
    op.rowParameters?.(input) ?? input,
  );
  const caller: CallerView = { keyId: 'test', plan, paid: plan !== 'free' };
  return op.run(input, contexts.contextFor(op, { requestKey, caller, rowStart: 0 }));
}

async function assertServedBytes(
  op: AnyOp,
  path: string,
  raw: Record<string, unknown>,
  plan: PlanId,
) {
  const reply = await call(service.base, path, { key: service.keys[plan], body: raw });
  assert.equal(reply.status, 200, reply.text);
  const expected = JSON.stringify(await generalOutput(op, raw, plan));
  assert.ok(
    Buffer.from(reply.text, 'utf8').equals(Buffer.from(expected, 'utf8')),
    `${path} ${JSON.stringify(raw)} as ${plan}:\n${reply.text.slice(0, 400)}\n${expected.slice(0, 400)}`,
  );
}

describe('served one-pass JSON equals the general path', () => {
  it('/generate inline and pooled, bank details on and off, free and paid keys', async () => {
    // A free key has 50 API credits for good: one inline and one pooled request.
    const requests = [
      ['free', 7, true],
      ['free', 30, true],
      ['business', 7, false],
      ['business', 7, true],
      ['business', 100, false],
      ['business', 100, true],
    ] as const;
    for (const [plan, quantity, details] of requests) {
      const raw = {
        country: quantity === 7 ? 'AT' : 'DE',
        quantity,
        include_bank_details: details,
        seed: `served ${plan} "${quantity}"`,
      };
      await assertServedBytes(ibanGenerate, '/generate', raw, plan);
    }
  });

  it('/generate targeted at a city, pooled', async () => {
    const raw = { country: 'DE', quantity: 80, seed: 'target', targeting: { city: 'Berlin' } };
    await assertServedBytes(ibanGenerate, '/generate', raw, 'business');
  });

  it('/bulk-dataset inline and pooled, bank details on and off', async () => {
    for (const [country, quantity, details] of [
      ['NL', 12, false],
      ['DE', 12, true],
      ['IT', 400, true],
      ['FR', 250, false],
    ] as const) {
      const raw = { country, quantity, include_bank_details: details, seed: `bulk ${country}` };
      await assertServedBytes(ibanBulkDataset, '/bulk-dataset', raw, 'pro');
    }
  });
});
