// /generate and /bulk-dataset write their REST JSON in one pass (runJson): the bytes must be exactly
// Buffer.from(JSON.stringify(output)) of the general path (run), and today's renderer of it, for random seeds, row
// counts and row starts, every country, bank details on and off, targeting, profiles and every caller visibility.
// Banks are the embedded registry's (names with umlauts and other non-ASCII letters).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { AnyOp, CallerView } from '../../src/contract/op.js';
import { countryFormats } from '../../src/domain/iban/countries.js';
import { compileInputValidator } from '../../src/ops/framework/input-validation.js';
import { ibanBulkDataset } from '../../src/ops/iban/bulk-dataset.js';
import { ibanGenerate } from '../../src/ops/iban/generate.js';
import { loadEmbeddedDefault } from '../../src/registry/embedded-default.js';
import { createMemoryDirectory } from '../../src/registry/memory-directory.js';
import { outputJsonBytes } from '../../src/render/json-bytes.js';
import { ContextFactory } from '../../src/service/context.js';
import { requestKeyFor } from '../../src/service/request-key.js';

const bank = createMemoryDirectory(loadEmbeddedDefault());
const contexts = new ContextFactory({ bank }, () => new Date('2026-03-01T12:00:00Z'), 'test');

/** Keyless, free, paid, and paid with BIC reveals spent: the four ways bank fields are shown. */
const callers: readonly CallerView[] = [
  { keyId: null, plan: null, paid: false },
  { keyId: 'k', plan: 'free', paid: false },
  { keyId: 'k', plan: 'business', paid: true },
  { keyId: 'k', plan: 'business', paid: true, revealsSpent: true },
];

const countries = countryFormats.map((format) => format.code);

interface Case {
  readonly raw: Record<string, unknown>;
  readonly caller: CallerView;
  readonly rowStart: number;
}

/** Both paths over one request: the one-pass bytes and the general path's output, from the same request key. */
async function bothPaths(op: AnyOp, { raw, caller, rowStart }: Case) {
  const input = compileInputValidator(op)(raw);
  const requestKey = requestKeyFor(
    op.keyScope ?? op.name,
    op.seedOf?.(input),
    op.rowParameters?.(input) ?? input,
  );
  const context = () => contexts.contextFor(op, { requestKey, caller, rowStart });
  const answer = await op.runJson?.(input, context());
  assert.ok(answer !== undefined, `${op.name} writes its own JSON`);
  const written = Buffer.from(answer.jsonView());
  const general = await op.run(input, context());
  return { written, general };
}

async function assertSameBytes(op: AnyOp, request: Case): Promise<void> {
  const { written, general } = await bothPaths(op, request);
  const expected = Buffer.from(JSON.stringify(general), 'utf8');
  assert.ok(
    written.equals(expected),
    `${op.name} ${JSON.stringify(request)}:\n${written.toString('utf8').slice(0, 600)}\n${expected.toString('utf8').slice(0, 600)}`,
  );
  assert.ok(written.equals(outputJsonBytes(general)), 'the general renderer writes the same bytes');
}

const seedArbitrary = fc.option(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }), {
  nil: undefined,
});
const callerArbitrary = fc.constantFrom(...callers);
const rowStartArbitrary = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 1_000_000 }));

/** `runs` random requests of up to `quantityMax` rows (with `fields` added) are byte-identical on both paths. */
function assertRandomRequests(
  op: AnyOp,
  quantityMax: number,
  fields: Record<string, unknown>,
  runs: number,
): Promise<void> {
  return fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...countries),
      fc.integer({ min: 1, max: quantityMax }),
      seedArbitrary,
      fc.boolean(),
      callerArbitrary,
      rowStartArbitrary,
      async (country, quantity, seed, details, caller, rowStart) => {
        const raw = {
          country,
          quantity,
          include_bank_details: details,
          ...fields,
          ...(seed === undefined ? {} : { seed }),
        };
        await assertSameBytes(op, { raw, caller, rowStart });
      },
    ),
    { numRuns: runs },
  );
}

describe('generate: one-pass JSON equals the general path', () => {
  it('random countries, quantities, seeds, bank details, callers and row starts', () =>
    assertRandomRequests(ibanGenerate, 100, {}, 150));

  it('targeted rows (city, bank, BIC8 and BIC11; aliases) for every caller', async () => {
    const german = bank.generationBanksOf('DE').find((info) => info.bic !== null);
    assert.ok(german?.bic, 'the embedded registry has a German bank with a BIC');
    const targets = [
      { targeting: { city: 'München' } },
      { targeting: { bank: 'Sparkasse' } },
      { targeting: { bank: german.bankCode } },
      { targeting: { bic: german.bic } },
      { custom_bic: german.bic.slice(0, 8) },
      { targeting: { city: 'Berlin', bank: 'Bank' } },
    ];
    for (const target of targets) {
      for (const caller of callers) {
        for (const seed of ['t', 'Zürich "quoted" \\ 😀', undefined]) {
          const raw = {
            country: 'DE',
            quantity: 37,
            ...(seed === undefined ? {} : { seed }),
            ...target,
          };
          await assertSameBytes(ibanGenerate, { raw, caller, rowStart: 0 });
        }
      }
    }
  });
});

describe('bulk-dataset: one-pass JSON equals the general path', () => {
  it('random countries, quantities, seeds, bank details, callers and row starts', () =>
    assertRandomRequests(ibanBulkDataset, 300, { output: 'json' }, 100));

  it('pool-sized datasets, with and without bank details', async () => {
    for (const [country, details] of [
      ['IT', true],
      ['DE', false],
      ['FR', true],
    ] as const) {
      const raw = { country, quantity: 3_000, include_bank_details: details, seed: 'pool' };
      await assertSameBytes(ibanBulkDataset, {
        raw,
        caller: callers[2] as CallerView,
        rowStart: 0,
      });
    }
  });

  it('rows with profiles', async () => {
    for (const caller of callers) {
      for (const country of ['DE', 'FR', 'NL']) {
        const raw = { country, quantity: 25, include_profiles: true, seed: `profiles ${country}` };
        await assertSameBytes(ibanBulkDataset, { raw, caller, rowStart: 0 });
      }
    }
  });

  it('a reused answer buffer: a longer answer then a shorter one, each whole', async () => {
    const long = await bothPaths(ibanBulkDataset, {
      raw: { country: 'DE', quantity: 500, seed: 'long' },
      caller: callers[2] as CallerView,
      rowStart: 0,
    });
    const short = await bothPaths(ibanGenerate, {
      raw: { country: 'AT', quantity: 2, seed: 'short' },
      caller: callers[1] as CallerView,
      rowStart: 0,
    });
    assert.equal(long.written.length > short.written.length, true);
    assert.deepEqual(JSON.parse(short.written.toString('utf8')), short.general);
  });
});
