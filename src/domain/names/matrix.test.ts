import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requestKeyOf } from '../rng.js';
import { compileMatrix, matrixRow, rowIndexOf } from './matrix.js';
import { labellingRules, perturbations } from './perturbations.js';

/** Levenshtein distance written here, independently of the generator. */
function levenshtein(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + (x[i - 1] === y[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[y.length] as number;
}

const key = requestKeyOf('default', 'vop.matrix|{}');

describe('VoP benchmark matrix', () => {
  it('is a pure function of (seed, row index): pinned golden rows', () => {
    const rows = compileMatrix(key, 13, undefined);
    assert.deepEqual(
      rows.map((row) => row.perturbation),
      [...perturbations],
    );
    // Golden: changing these is a breaking change for every published matrix.
    assert.deepEqual(
      rows.slice(0, 3).map((row) => [row.row_id, row.account_name, row.payer_name]),
      GOLDEN,
    );
    assert.deepEqual(matrixRow(key, 7), rows[7]);
  });

  it("labels every row by its perturbation's rule; close matches return the name as held", () => {
    const rows = compileMatrix(key, 1_000, undefined);
    for (const row of rows) {
      const rule = labellingRules.find((candidate) => candidate.perturbation === row.perturbation);
      assert.equal(row.expected_label, rule?.label);
      assert.equal(
        row.returned_name,
        row.expected_label === 'CLOSE_MATCH' ? row.account_name : null,
      );
      if (row.perturbation === 'exact') assert.equal(row.payer_name, row.account_name);
      if (row.perturbation === 'missing_name') assert.equal(row.payer_name.trim(), '');
      if (row.perturbation === 'different_entity')
        assert.notEqual(row.payer_name, row.account_name);
      if (row.perturbation === 'case')
        assert.equal(row.payer_name.toUpperCase(), row.account_name.toUpperCase()); // ß upper-cases to SS
      if (row.perturbation === 'legal_form_variant' || row.perturbation === 'legal_form_missing')
        assert.equal(row.holder_kind, 'entity');
    }
  });

  it('puts typos at the stated edit distance, first letter kept', () => {
    const typos = compileMatrix(key, 1_000, undefined).filter((row) =>
      row.perturbation.startsWith('typo_'),
    );
    assert.ok(typos.length > 100);
    for (const row of typos) {
      assert.equal(row.edit_distance, row.perturbation === 'typo_1' ? 1 : 2);
      assert.equal(
        levenshtein(row.payer_name, row.account_name),
        row.edit_distance,
        `${row.payer_name} / ${row.account_name}`,
      );
      assert.equal([...row.payer_name][0], [...row.account_name][0]);
    }
  });

  it('filters by outcome without changing rows or ids, and a smaller limit is a prefix', () => {
    const all = compileMatrix(key, 300, undefined);
    const closeOnly = compileMatrix(key, 50, new Set(['CLOSE_MATCH', 'NOAP'] as const));
    assert.equal(closeOnly.length, 50);
    for (const row of closeOnly) {
      assert.ok(row.expected_label === 'CLOSE_MATCH' || row.expected_label === 'NOAP');
      assert.deepEqual(row, matrixRow(key, rowIndexOf(row.row_id) as number));
    }
    assert.deepEqual(compileMatrix(key, 20, undefined), all.slice(0, 20));
    assert.notDeepEqual(
      compileMatrix(requestKeyOf('other', 'vop.matrix|{}'), 20, undefined),
      all.slice(0, 20),
    );
  });

  it('reads row ids strictly', () => {
    assert.equal(rowIndexOf('r0'), 0);
    assert.equal(rowIndexOf('r12'), 12);
    for (const bad of ['r', 'r01', 'x1', 'r-1', 'r1.5', 'r99999999'])
      assert.equal(rowIndexOf(bad), undefined, bad);
  });
});

const GOLDEN: [string, string, string][] = [
  ['r0', 'Alistair McAllister-Hughes', 'Alistair McAllister-Hughes'],
  ['r1', 'João Conceição Gonçalves', 'JOÃO CONCEIÇÃO GONÇALVES'],
  ['r2', 'Győri Fűtéstechnika Kft.', '  Győri   Fűtéstechnika   Kft. '],
];
