// Goal: the methods that read shifted, zeroed or prolonged account numbers in place (no string
// built per check) decide exactly as the Bundesbank text's literal construction of those numbers.
// Method: each reference below builds the number as the document describes it (a string) and
// runs the shared method 00/06 arithmetic on it; 20,000 accounts with 0-5 leading zeros per method.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requestKeyOf, rngBelow, rowRng } from '../../../rng.js';
import { checkGermanAccount } from './index.js';
import { at, checkDigit, crossWeightedSum, cycle, mod10, passes00, passes06 } from './weights.js';

const accountsPerMethod = 20_000;
const leadingZerosMax = 5;
const prolonged = 15;
const w21Prolonged = cycle([2, 1], prolonged);
const passes00Prolonged = (number: string, account: string): boolean =>
  mod10(crossWeightedSum(number, prolonged, w21Prolonged)) === checkDigit(account);
const c6Constants = [
  '4451970',
  '4451981',
  '4451992',
  '4451993',
  '4344992',
  '4344990',
  '4344991',
  '5499570',
  '4451994',
  '5499579',
];

/** Literal constructions: shifted sub-accounts, zeroed positions, numbers as numbers, prolonged constants. */
const references: Readonly<Record<string, (account: string) => boolean>> = {
  '08': (account) => Number(account) < 60_000 || passes00(account),
  '13': (account) =>
    passes00(account, 7, 6, 8) ||
    (account.startsWith('00') && passes00(`${account.slice(2)}00`, 7, 6, 8)),
  '26': (account) =>
    passes06(
      account.startsWith('00') ? `${account.slice(2)}00` : account,
      [2, 3, 4, 5, 6, 7, 2],
      7,
      8,
    ),
  '27': (account) =>
    Number(account) < 1_000_000_000
      ? passes00(account)
      : checkGermanAccount('29', '', account) === 'passed',
  '50': (account) =>
    passes06(account, [2, 3, 4, 5, 6, 7], 6, 7) ||
    (account.startsWith('000') && passes06(`${account.slice(3)}000`, [2, 3, 4, 5, 6, 7], 6, 7)),
  '70': (account) => {
    const short = account.charAt(3) === '5' || account.slice(3, 5) === '69';
    return passes06(account, short ? [2, 3, 4, 5, 6, 7] : [2, 3, 4, 5, 6, 7, 2, 3, 4]);
  },
  C6: (account) =>
    passes00Prolonged(`${c6Constants[at(account, 1)] ?? ''}${account.slice(1, 9)}`, account),
  D1: (account) =>
    at(account, 1) !== 8 && passes00Prolonged(`436338${account.slice(0, 9)}`, account),
  D4: (account) =>
    at(account, 1) !== 0 && passes00Prolonged(`428259${account.slice(0, 9)}`, account),
  E2: (account) =>
    at(account, 1) <= 5 && passes00Prolonged(`438320${account.slice(0, 9)}`, account),
};

/** Method 76 and 68's second variant only reach their in-place branch for some layouts: checked apart. */
const method76Reference = (account: string): boolean => {
  const layout = (number: string): boolean => {
    if (![0, 4, 6, 7, 8, 9].includes(at(number, 1))) return false;
    let sum = 0;
    for (let offset = 0; offset < 6; offset++) sum += at(number, 7 - offset) * (offset + 2);
    const remainder = sum % 11;
    return remainder !== 10 && remainder === at(number, 8);
  };
  return layout(account) || (account.startsWith('00') && layout(`${account.slice(2)}00`));
};

function accounts(seed: string): string[] {
  const rng = rowRng(requestKeyOf('de-string-free', seed), 0);
  return Array.from({ length: accountsPerMethod }, () => {
    const zeros = rngBelow(rng, leadingZerosMax + 1);
    let account = '0'.repeat(zeros);
    while (account.length < 10) account += String(rngBelow(rng, 10));
    return account;
  });
}

describe('German methods read derived account numbers in place', () => {
  for (const [method, reference] of Object.entries({ ...references, '76': method76Reference })) {
    it(`method ${method} agrees with the literal construction`, () => {
      let passed = 0;
      for (const account of accounts(method)) {
        const expected = reference(account);
        if (expected) passed++;
        assert.equal(
          checkGermanAccount(method, '13051172', account),
          expected ? 'passed' : 'failed',
          `${method} ${account}`,
        );
      }
      assert.ok(passed > 0, `${method}: some accounts pass`);
    });
  }

  it('method 68 with positions 3 and 4 read as zeros agrees with the literal construction', () => {
    let retried = 0;
    for (const account of accounts('68')) {
      const length = account.replace(/^0+/, '').length;
      if (
        length < 6 ||
        length === 10 ||
        (length === 9 && at(account, 2) === 4) ||
        passes00(account)
      )
        continue;
      retried++;
      const expected = passes00(`${account.slice(0, 2)}00${account.slice(4)}`);
      assert.equal(
        checkGermanAccount('68', '13051172', account),
        expected ? 'passed' : 'failed',
        account,
      );
    }
    assert.ok(retried > 1000, `the zeroed variant ran ${retried} times`);
  });
});
