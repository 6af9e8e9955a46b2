import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../errors.js';
import { limits } from '../../limits.js';
import { requestKeyOf, rowRng } from '../rng.js';
import { abaCheckDigit, abaChecksumValid, checkRoutingList, checkRoutingNumber } from './aba.js';
import { generateRoutingNumbers } from './generate.js';
import { readShared, skipWithoutShared as needsShared } from '../../../test/helpers/shared.js';

/** Independent restatement of the rule: 3(d1+d4+d7) + 7(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
function referenceChecksum(digits: string): boolean {
  const d = [...digits].map(Number);
  const group = (a: number, b: number, c: number) => (d[a] ?? 0) + (d[b] ?? 0) + (d[c] ?? 0);
  return (3 * group(0, 3, 6) + 7 * group(1, 4, 7) + group(2, 5, 8)) % 10 === 0;
}

function fixedWidthRoutingNumbers(relative: string): string[] {
  const text = readShared(relative).toString('latin1');
  return text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map((line) => line.slice(0, 9));
}

describe('abaCheckDigit', () => {
  it('completes the Federal Reserve Bank of Boston number 011000015', () => {
    assert.equal(abaCheckDigit('01100001'), 5);
  });

  it('agrees with the reference formula for every digit of a sweep', () => {
    for (let n = 0; n < 5000; n++) {
      const first8 = String(n * 19997)
        .padStart(8, '0')
        .slice(-8);
      const check = abaCheckDigit(first8);
      assert.ok(referenceChecksum(first8 + String(check)), first8);
      for (let other = 0; other < 10; other++) {
        if (other !== check) assert.equal(referenceChecksum(first8 + String(other)), false);
      }
    }
  });

  it('refuses anything but eight ASCII digits (programmer error)', () => {
    assert.throws(() => abaCheckDigit('0110000'), /8 ASCII digits/);
    assert.throws(() => abaCheckDigit('0110000A'), /8 ASCII digits/);
  });
});

describe('checkRoutingNumber: reasons in order', () => {
  const vectors: [string, string, string | null][] = [
    ['valid Fed Boston', '011000015', null],
    ['valid thrift range (FedACH sample)', '325183657', null],
    ['letter', '01100001X', 'invalid_characters'],
    ['letter beats length', 'ABC', 'invalid_characters'],
    ['space inside', '0110 00015', 'invalid_characters'],
    ['hyphenated print form', '0110-0001-5', 'invalid_characters'],
    ['Arabic-Indic digits are not ASCII digits', '٠١١٠٠٠٠١٥', 'invalid_characters'],
    ['full-width digits', '０１１０００００１５', 'invalid_characters'],
    ['empty', '', 'invalid_length'],
    ['8 digits', '01100001', 'invalid_length'],
    ['10 digits', '0110000150', 'invalid_length'],
    ['length beats prefix', '1300000', 'invalid_length'],
    ['prefix 13 with a passing checksum', '130000006', 'invalid_prefix'],
    ['prefix 50 with a passing checksum', '500000005', 'invalid_prefix'],
    ['prefix 99 with a passing checksum', '990000000', 'invalid_prefix'],
    ['prefix beats checksum', '130000007', 'invalid_prefix'],
    ['check digit off by one', '011000016', 'invalid_checksum'],
    ['digit changed', '011000025', 'invalid_checksum'],
  ];
  for (const [name, input, error] of vectors) {
    it(`${name}: ${JSON.stringify(input)} -> ${error ?? 'valid'}`, () => {
      const verdict = checkRoutingNumber(input);
      assert.equal(verdict.error, error);
      assert.equal(verdict.valid, error === null);
      assert.equal(verdict.input, input);
    });
  }

  it('the prefix vectors really pass the 3-7-1 checksum (so only the prefix is wrong)', () => {
    for (const input of ['130000006', '500000005', '990000000'])
      assert.ok(referenceChecksum(input), input);
    assert.equal(referenceChecksum('130000007'), false);
  });

  it('accepts exactly the prefixes 00-12, 21-32, 61-72 and 80', () => {
    for (let code = 0; code < 100; code++) {
      const first8 = `${String(code).padStart(2, '0')}123456`;
      const input = first8 + String(abaCheckDigit(first8));
      const expected =
        code <= 12 || (code >= 21 && code <= 32) || (code >= 61 && code <= 72) || code === 80;
      assert.equal(checkRoutingNumber(input).error, expected ? null : 'invalid_prefix', input);
    }
  });

  it('reports the prefix meaning and the expected check digit', () => {
    const verdict = checkRoutingNumber('011000016');
    assert.equal(verdict.expected_check_digit, 5);
    assert.equal(verdict.prefix?.value, '01');
    assert.equal(verdict.prefix?.reserve_bank_city, 'Boston');
    assert.equal(
      checkRoutingNumber('01100001').prefix?.district,
      1,
      'prefix is read from short inputs too',
    );
    assert.equal(checkRoutingNumber('01100001').expected_check_digit, null);
    assert.equal(checkRoutingNumber('A11000015').prefix, null);
    assert.equal(checkRoutingNumber('1').prefix, null);
  });
});

describe('checksum properties', () => {
  it('lemma: w·δ is never ≡ 0 (mod 10) for w ∈ {3, 7, 1} and δ ∈ ±1..±9', () => {
    for (const weight of [3, 7, 1]) {
      for (let delta = -9; delta <= 9; delta++) {
        if (delta !== 0)
          assert.notEqual((((weight * delta) % 10) + 10) % 10, 0, `${weight}×${delta}`);
      }
    }
  });

  it('every single-digit change of 1,000 generated numbers is rejected (9 positions × 9 digits)', () => {
    const rows = generateRoutingNumbers(rowRng(requestKeyOf('single-digit', 'aba'), 0), 1000);
    for (const { routing_number: valid } of rows) {
      for (let index = 0; index < 9; index++) {
        for (let digit = 0; digit < 10; digit++) {
          if (String(digit) === valid[index]) continue;
          const changed = valid.slice(0, index) + String(digit) + valid.slice(index + 1);
          assert.equal(abaChecksumValid(changed), false, changed);
          const verdict = checkRoutingNumber(changed);
          assert.equal(verdict.valid, false, changed);
          // Positions 1-2 may land outside the prefix ranges first; after them, only the checksum can fail.
          if (index >= 2) assert.equal(verdict.error, 'invalid_checksum', changed);
        }
      }
    }
  });

  it('an adjacent transposition passes exactly when the two digits differ by 5 (or are equal)', () => {
    const rows = generateRoutingNumbers(rowRng(requestKeyOf('transpose', 'aba'), 0), 2000);
    let undetected = 0;
    for (const { routing_number: valid } of rows) {
      for (let index = 0; index < 8; index++) {
        const swapped =
          valid.slice(0, index) + valid[index + 1] + valid[index] + valid.slice(index + 2);
        const gap = Math.abs(Number(valid[index]) - Number(valid[index + 1]));
        assert.equal(abaChecksumValid(swapped), gap === 0 || gap === 5, `${valid} -> ${swapped}`);
        if (gap === 5) undetected++;
      }
    }
    assert.ok(undetected > 0, 'the sample contains the undetectable transpositions');
  });
});

describe('checkRoutingList', () => {
  it('returns one verdict per input, in order', () => {
    const inputs = ['011000015', '01100001', '01100001X', '130000006', '011000016'];
    assert.deepEqual(
      checkRoutingList(inputs).map((verdict) => [verdict.input, verdict.error]),
      inputs.map((input) => [input, checkRoutingNumber(input).error]),
    );
    assert.deepEqual(checkRoutingList([]), []);
  });

  it(`accepts ${limits.usRouting.listPaidMax} items and refuses one more with invalid_argument`, () => {
    assert.equal(
      checkRoutingList(Array.from({ length: limits.usRouting.listPaidMax }, () => '011000015'))
        .length,
      limits.usRouting.listPaidMax,
    );
    assert.throws(
      () =>
        checkRoutingList(
          Array.from({ length: limits.usRouting.listPaidMax + 1 }, () => '011000015'),
        ),
      (error: unknown) =>
        error instanceof AppError &&
        error.code === 'invalid_argument' &&
        error.details['max_items'] === limits.usRouting.listPaidMax,
    );
  });

  // Its speed (1,000 mixed numbers) is measured in bench/domain-checks.bench.ts, never asserted here.
  it('1,000 mixed numbers: 800 generated valid, 100 with a letter, 100 one digit short, in input order', () => {
    const valid = generateRoutingNumbers(rowRng(requestKeyOf('perf', 'aba'), 0), 800).map(
      (row) => row.routing_number,
    );
    const inputs = [
      ...valid,
      ...valid.slice(0, 200).map((n, i) => (i % 2 === 0 ? `${n.slice(0, 8)}X` : n.slice(1))),
    ];
    const verdicts = checkRoutingList(inputs);
    assert.deepEqual(
      verdicts.map((verdict) => verdict.input),
      inputs,
    );
    assert.equal(verdicts.filter((verdict) => verdict.valid).length, 800);
    assert.equal(verdicts.filter((verdict) => verdict.error === 'invalid_characters').length, 100);
    assert.equal(verdicts.filter((verdict) => verdict.error === 'invalid_length').length, 100);
  });
});

describe('real published routing numbers (../shared/registry-sources)', () => {
  it(
    'every number in the official FedACH JSON sample is valid (own, servicing FRB, new RTN)',
    needsShared,
    () => {
      const json = JSON.parse(
        readShared('fedach/official-json-sample/fedachdir.json').toString('utf8'),
      ) as {
        fedACHParticipants: {
          fedACHParticipants: {
            routingNumber: string;
            servicingFRBNumber: string;
            newRoutingNumber: string;
          }[];
        };
      };
      const participants = json.fedACHParticipants.fedACHParticipants;
      assert.ok(participants.length >= 3);
      const numbers = participants.flatMap((p) => [
        p.routingNumber,
        p.servicingFRBNumber,
        p.newRoutingNumber,
      ]);
      for (const number of numbers.filter((n) => n !== '000000000')) {
        assert.equal(checkRoutingNumber(number).error, null, number);
      }
    },
  );

  for (const file of ['fedach/2016-02-03/FedACHdir.txt', 'fedach/2018-12-04/FedACHdir.txt']) {
    it(`every routing number in ${file} is valid`, needsShared, () => {
      const numbers = fixedWidthRoutingNumbers(file);
      assert.ok(numbers.length > 18_000, `${numbers.length} records`);
      const failures = numbers
        .map((n) => checkRoutingNumber(n))
        .filter((verdict) => !verdict.valid);
      assert.deepEqual(failures, []);
    });
  }

  for (const file of ['fedwire/2016-02-04/fpddir.txt', 'fedwire/2018-12-03/fpddir.txt']) {
    it(
      `${file}: all pass the checksum; the only prefix failures start with 15 (U.S. Treasury)`,
      needsShared,
      () => {
        // Finding: the Fedwire directory lists Treasury numbers such as 154000008 whose prefix 15 lies
        // outside the published ranges; the prefix rule reports them, the checksum accepts them.
        const numbers = fixedWidthRoutingNumbers(file);
        const failures = numbers
          .map((n) => checkRoutingNumber(n))
          .filter((verdict) => !verdict.valid);
        assert.ok(numbers.every((n) => abaChecksumValid(n)));
        assert.ok(failures.length > 0 && failures.length < 5, `${failures.length} failures`);
        for (const verdict of failures) {
          assert.equal(verdict.error, 'invalid_prefix', verdict.input);
          assert.equal(verdict.prefix?.value, '15', verdict.input);
        }
      },
    );
  }
});
