import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../errors.js';
import { requestKeyOf, rowRng, type Rng } from '../rng.js';
import { abaCheckDigit, checkRoutingNumber } from './aba.js';
import {
  defaultGenerationPrefixes,
  generateRoutingNumbers,
  generateRoutingRow,
  resolveGenerationPrefixes,
  syntheticRoutingNote,
} from './generate.js';

/** Replays fixed draws: a value below the bound passes rngBelow unchanged, so [0, 1, 0, …] are digits. */
function scriptedRng(draws: readonly number[]): Rng {
  let next = 0;
  return {
    nextU32() {
      const value = draws[next++];
      if (value === undefined) throw new Error('script exhausted');
      return value;
    },
  };
}

const goldenKey = requestKeyOf('golden', 'us-routing/v1');

describe('generateRoutingNumbers', () => {
  it('10,000 generated numbers are all valid and use the default prefixes', () => {
    const rows = generateRoutingNumbers(rowRng(requestKeyOf('property', 'aba'), 0), 10_000);
    assert.equal(rows.length, 10_000);
    for (const row of rows) {
      const verdict = checkRoutingNumber(row.routing_number);
      assert.equal(verdict.error, null, row.routing_number);
      assert.ok(defaultGenerationPrefixes.includes(row.prefix), row.prefix);
      assert.equal(row.routing_number.slice(0, 2), row.prefix);
      assert.equal(row.district, verdict.prefix?.district);
    }
    assert.equal(
      new Set(rows.map((row) => row.routing_number)).size,
      rows.length,
      'distinct within a call',
    );
  });

  it('draws every default prefix with roughly equal frequency', () => {
    const rows = generateRoutingNumbers(rowRng(requestKeyOf('spread', 'aba'), 0), 24_000);
    const counts = new Map<string, number>();
    for (const row of rows) counts.set(row.prefix, (counts.get(row.prefix) ?? 0) + 1);
    assert.deepEqual([...counts.keys()].sort(), [...defaultGenerationPrefixes]);
    for (const [prefix, count] of counts)
      assert.ok(count > 800 && count < 1200, `${prefix}: ${count}`);
  });

  it('labels every row synthetic with no bank assignment', () => {
    const [row] = generateRoutingNumbers(rowRng(goldenKey, 0), 1);
    assert.deepEqual(
      { synthetic: row?.synthetic, bank_assignment: row?.bank_assignment, note: row?.note },
      {
        synthetic: true,
        bank_assignment: null,
        note: 'synthetic: checksum-valid, no bank assignment asserted',
      },
    );
    assert.equal(syntheticRoutingNote, row?.note);
  });

  it('is deterministic per rng and differs between seeds', () => {
    const a = generateRoutingNumbers(rowRng(goldenKey, 0), 50);
    const b = generateRoutingNumbers(rowRng(goldenKey, 0), 50);
    const c = generateRoutingNumbers(rowRng(requestKeyOf('other', 'us-routing/v1'), 0), 50);
    assert.deepEqual(a, b);
    assert.notDeepEqual(a, c);
  });

  it('golden seeded output is pinned (changing it breaks published seeds)', () => {
    assert.deepEqual(
      generateRoutingNumbers(rowRng(goldenKey, 0), 5).map((row) => row.routing_number),
      ['048663690', '034650154', '053387961', '262672373', '249784501'],
    );
    // Sliced generation: row i from rowRng(key, i), as the service does across workers.
    assert.deepEqual(
      [0, 1, 2, 3, 4].map(
        (i) => generateRoutingRow(rowRng(goldenKey, i), defaultGenerationPrefixes).routing_number,
      ),
      ['048663690', '276202632', '313842298', '051645906', '237528630'],
    );
  });

  it('honours requested prefixes, including 00, ETIs and 80', () => {
    const rows = generateRoutingNumbers(rowRng(goldenKey, 1), 300, {
      prefixes: ['00', '61', '80', '61'],
    });
    assert.deepEqual([...new Set(rows.map((row) => row.prefix))].sort(), ['00', '61', '80']);
    for (const row of rows) assert.equal(checkRoutingNumber(row.routing_number).error, null);
    assert.ok(
      rows.every((row) => (row.prefix === '61' ? row.district === 1 : row.district === null)),
    );
  });

  it('rejects unknown, malformed and empty prefix lists with invalid_argument', () => {
    for (const prefixes of [['13'], ['1'], ['01', 'AB'], []]) {
      assert.throws(
        () => resolveGenerationPrefixes(prefixes),
        (error: unknown) => error instanceof AppError && error.code === 'invalid_argument',
        JSON.stringify(prefixes),
      );
    }
    assert.deepEqual(resolveGenerationPrefixes(['12', '21', '12']), ['12', '21']);
  });

  it("never emits a Federal Reserve Bank's own number: 011000015 is redrawn", () => {
    // prefix pick (bound 1), then six digits 1,0,0,0,0,1 -> 01100001 + 5; the redraw gives 01234567.
    const rng = scriptedRng([0, 1, 0, 0, 0, 0, 1, 0, 2, 3, 4, 5, 6, 7]);
    const [row] = generateRoutingNumbers(rng, 1, { prefixes: ['01'] });
    assert.equal(row?.routing_number, `01234567${abaCheckDigit('01234567')}`);
  });

  it('redraws numbers in `exclude` (e.g. a loaded directory) and repeats within a call', () => {
    const script = [0, 2, 3, 4, 5, 6, 7, 0, 2, 3, 4, 5, 6, 7, 0, 9, 9, 9, 9, 9, 9];
    const excluded = generateRoutingNumbers(scriptedRng(script), 1, {
      prefixes: ['01'],
      exclude: new Set([`01234567${abaCheckDigit('01234567')}`]),
    });
    assert.equal(excluded[0]?.routing_number.slice(0, 8), '01999999');
    const repeated = generateRoutingNumbers(scriptedRng(script), 2, { prefixes: ['01'] });
    assert.deepEqual(
      repeated.map((row) => row.routing_number.slice(0, 8)),
      ['01234567', '01999999'],
    );
  });

  it('fails loudly when exclusions cover every candidate', () => {
    const everything = { has: () => true };
    assert.throws(
      () => generateRoutingNumbers(rowRng(goldenKey, 0), 1, { exclude: everything }),
      /no new routing number/,
    );
  });

  it('returns no rows for quantity 0 and refuses a negative or fractional quantity', () => {
    assert.deepEqual(generateRoutingNumbers(rowRng(goldenKey, 0), 0), []);
    assert.throws(() => generateRoutingNumbers(rowRng(goldenKey, 0), -1), /non-negative integer/);
    assert.throws(() => generateRoutingNumbers(rowRng(goldenKey, 0), 1.5), /non-negative integer/);
  });
});
