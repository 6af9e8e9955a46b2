import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../errors.js';
import { requestKeyOf, rowRng } from '../rng.js';
import { checkRoutingNumber } from './aba.js';
import { generateRoutingNumbers } from './generate.js';
import { federalReserveBankRoutingNumbers } from './prefixes.js';
import { routingTestCases, type RoutingTestCase } from './test-cases.js';

const key = requestKeyOf('cases', 'us-routing/v1');

function assertAgrees(testCase: RoutingTestCase): void {
  const verdict = checkRoutingNumber(testCase.input);
  assert.equal(
    verdict.valid,
    testCase.expected_valid,
    `${testCase.case_id} ${JSON.stringify(testCase.input)}`,
  );
  assert.equal(
    verdict.error,
    testCase.expected_error,
    `${testCase.case_id} ${JSON.stringify(testCase.input)}`,
  );
}

describe('routingTestCases', () => {
  it('checkRoutingNumber agrees with every case for 2,000 generated and the 12 Fed numbers', () => {
    const generated = generateRoutingNumbers(rowRng(key, 0), 2000, {
      prefixes: ['00', '01', '05', '12', '21', '32', '61', '72', '80'],
    }).map((row) => row.routing_number);
    let undetectedTranspositions = 0;
    [...federalReserveBankRoutingNumbers, ...generated].forEach((number, index) => {
      const cases = routingTestCases(rowRng(key, index), number);
      for (const testCase of cases) assertAgrees(testCase);
      const transposed = cases.find((c) => c.case_id === 'aba-adjacent-transposition');
      if (transposed?.expected_valid === true) {
        undetectedTranspositions++;
        assert.match(transposed.description, /differ by 5/);
      }
    });
    // P(chosen digits differ by 5 | they differ) = 1/9: the computed, passing transposition does occur.
    assert.ok(
      undetectedTranspositions > 100,
      `${undetectedTranspositions} undetected transpositions`,
    );
  });

  it('covers every category and every error, with unique case ids', () => {
    const cases = routingTestCases(rowRng(key, 1), '021001208');
    assert.deepEqual(
      new Set(cases.map((c) => c.category)),
      new Set(['valid', 'checksum', 'length', 'characters', 'prefix']),
    );
    assert.deepEqual(
      new Set(cases.map((c) => c.expected_error)),
      new Set([null, 'invalid_checksum', 'invalid_length', 'invalid_characters', 'invalid_prefix']),
    );
    assert.equal(new Set(cases.map((c) => c.case_id)).size, cases.length);
    const byId = new Map(cases.map((c) => [c.case_id, c]));
    assert.equal(byId.get('aba-valid')?.input, '021001208');
    assert.equal(byId.get('aba-too-short')?.input.length, 8);
    assert.equal(byId.get('aba-too-long')?.input.length, 10);
    assert.equal(byId.get('aba-hyphenated')?.input, '0210-0120-8');
    assert.ok(!byId.get('aba-bad-prefix')?.input.startsWith('02'));
  });

  it('single-digit cases change exactly one digit after the prefix', () => {
    for (let index = 0; index < 200; index++) {
      const cases = routingTestCases(rowRng(key, index), '091000080');
      for (const id of ['aba-digit-changed', 'aba-check-digit-changed']) {
        const input = cases.find((c) => c.case_id === id)?.input ?? '';
        const differing = [...input]
          .map((ch, i) => (ch === '091000080'[i] ? -1 : i))
          .filter((i) => i >= 0);
        assert.equal(differing.length, 1, `${id} ${input}`);
        assert.ok((differing[0] ?? 0) >= 2);
        if (id === 'aba-check-digit-changed') assert.deepEqual(differing, [8]);
      }
    }
  });

  it('omits the transposition when every adjacent digit pair after the prefix is equal', () => {
    assert.equal(checkRoutingNumber('011111111').valid, true);
    const cases = routingTestCases(rowRng(key, 0), '011111111');
    assert.equal(
      cases.some((c) => c.case_id === 'aba-adjacent-transposition'),
      false,
    );
    for (const testCase of cases) assertAgrees(testCase);
  });

  it('is deterministic per rng', () => {
    assert.deepEqual(
      routingTestCases(rowRng(key, 7), '101000048'),
      routingTestCases(rowRng(key, 7), '101000048'),
    );
  });

  it('golden seeded inputs are pinned', () => {
    assert.deepEqual(
      routingTestCases(rowRng(requestKeyOf('golden', 'us-routing/v1'), 0), '011000015').map(
        (c) => c.input,
      ),
      [
        '011000015',
        '011002015',
        '011000017',
        '011000105',
        '01100001',
        '0110000159',
        '0Y1000015',
        '0110-0001-5',
        ' 011000015 ',
        '731000010',
      ],
    );
  });

  it('refuses an invalid routing number with invalid_argument', () => {
    for (const input of ['011000016', '01100001', '130000006', 'x']) {
      assert.throws(
        () => routingTestCases(rowRng(key, 0), input),
        (error: unknown) => error instanceof AppError && error.code === 'invalid_argument',
        input,
      );
    }
  });
});
