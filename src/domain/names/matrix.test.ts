import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requestKeyOf } from '../rng.js';
import { compileMatrix, matrixRow, rowIndexOf } from './matrix.js';
import { legalFormTable } from './legal-forms.js';
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

/** Lower-case words two names share, legal forms and "&" included (written apart from holders.ts). */
function shared(a: string, b: string): string[] {
  const words = (text: string) =>
    text
      .toLowerCase()
      .split(/\s+/u)
      .filter((word) => /\p{L}/u.test(word));
  const other = new Set(words(b));
  const forms = new Set(
    legalFormTable.flatMap((form) => [...words(form.short), ...words(form.full)]),
  );
  return words(a).filter((word) => other.has(word) && !forms.has(word));
}

describe('VoP benchmark matrix', () => {
  it('is a pure function of (seed, row index): pinned golden rows', () => {
    const rows = compileMatrix(key, perturbations.length, undefined);
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
      if (row.perturbation === 'different_entity') {
        assert.notEqual(row.payer_name, row.account_name);
        assert.equal(shared(row.payer_name, row.account_name).length, 0, row.payer_name);
      }
      if (row.perturbation === 'different_entity_shared_word') {
        assert.notEqual(row.payer_name, row.account_name);
        assert.ok(shared(row.payer_name, row.account_name).length > 0, row.payer_name);
      }
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

  it('has at least 900 distinct holders in 1,000 rows, of many countries, persons and entities', () => {
    for (const seed of ['default', 'qa', 'another seed']) {
      const rows = compileMatrix(requestKeyOf(seed, 'vop.matrix|{}'), 1_000, undefined);
      const holders = new Set(rows.map((row) => row.account_name));
      assert.ok(holders.size >= 900, `${seed}: ${holders.size}`);
      assert.ok(new Set(rows.map((row) => row.country)).size >= 15, seed);
      const persons = rows.filter((row) => row.holder_kind === 'person').length;
      assert.ok(persons > 300 && persons < 700, `${seed}: ${persons} persons`);
    }
  });

  it('puts easy and hard NO_MATCH rows in every block, hard ones sharing a word but no typo of the name', () => {
    const rows = compileMatrix(key, 1_000, undefined);
    const hard = rows.filter((row) => row.perturbation === 'different_entity_shared_word');
    assert.equal(hard.length, rows.filter((row) => row.perturbation === 'different_entity').length);
    for (const row of hard) {
      assert.equal(row.expected_label, 'NO_MATCH');
      // Not a typo of the holder's name: more than the 2 edits a typo row has.
      assert.ok(levenshtein(row.payer_name, row.account_name) >= 3, row.payer_name);
    }
  });

  it('reads row ids strictly', () => {
    assert.equal(rowIndexOf('r0'), 0);
    assert.equal(rowIndexOf('r12'), 12);
    for (const bad of ['r', 'r01', 'x1', 'r-1', 'r1.5', 'r99999999'])
      assert.equal(rowIndexOf(bad), undefined, bad);
  });
});

const GOLDEN: [string, string, string][] = [
  ['r0', 'Borer & Skiles Landscaping PLC', 'Borer & Skiles Landscaping PLC'],
  ['r1', 'Stolárstvo Čarnogurský Spol. s r. o.', 'stolárstvo čarnogurský spol. s r. o.'],
  ['r2', 'Dalgaard Elektrik A/S', '  Dalgaard   Elektrik   A/S '],
];
