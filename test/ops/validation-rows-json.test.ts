// Validation rows carry a cached bank tail for the REST serializer: the bytes REST sends for them must be exactly
// Buffer.from(JSON.stringify(rows)) for every bank, visibility and verdict. Banks here are test fixtures (names
// with quotes, umlauts, astral characters; nulls), not registry facts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { validateIban } from '../../src/domain/iban/index.js';
import type { CallerView } from '../../src/contract/op.js';
import { validateJsonAnswer, validateList } from '../../src/ops/iban/validate.js';
import type { BankDirectory, BankInfo } from '../../src/registry/bank-directory.js';
import { BankKeys } from '../../src/registry/bank-keys.js';
import { outputJsonBytes } from '../../src/render/json-bytes.js';

function fixtureBank(
  bankCode: string,
  name: string | null,
  city: string | null,
  countryCode = 'DE',
): BankInfo {
  return Object.freeze({
    countryCode,
    bankCode,
    bic: name === null ? null : 'TESTDEFFXXX',
    name,
    city,
    accountCheckMethod: null,
    lei: null,
    legalName: name,
    entityStatus: null,
    registrationStatus: null,
    paymentSchemes: Object.freeze(['sct']),
    sourceId: 'test',
    live: true,
  });
}

const banks = [
  fixtureBank('37040044', 'Bank "Nord" Köln', 'Köln'),
  fixtureBank('10020030', null, null),
  fixtureBank('50010060', 'Ünïcode 😀 \\ bank', 'Zürich'),
  fixtureBank('539', 'Banque "BE"', 'Bruxelles', 'BE'),
];
/** What validateList and the written answer read of a directory, over the fixture banks. */
const bankOf = (country: string, code: string) =>
  banks.find((bank) => bank.countryCode === country && bank.bankCode === code);
const keys = new BankKeys(
  (country) =>
    new Map(
      banks.filter((bank) => bank.countryCode === country).map((bank) => [bank.bankCode, bank]),
    ),
);
const directory = {
  bankOf,
  bankIds: () => keys,
  accountCheckMethod: () => undefined,
};
const callers: CallerView[] = [
  { keyId: null, plan: null, paid: false },
  { keyId: 'k', plan: 'free', paid: false },
  { keyId: 'k', plan: 'pro', paid: true },
  { keyId: 'k', plan: 'pro', paid: true, revealsSpent: true },
];
/** An IBAN with check digits computed here by mod 97 (letters as 10-35, check digits 00 moved to the end). */
function ibanOf(country: string, bban: string): string {
  const letters = [...country].map((letter) => letter.charCodeAt(0) - 55).join('');
  const check = 98n - (BigInt(`${bban}${letters}00`) % 97n);
  return `${country}${String(check).padStart(2, '0')}${bban}`;
}
/** A German IBAN of a bank code and account. */
const germanIban = (bankCode: string, account: string) =>
  ibanOf('DE', `${bankCode}${account.padStart(10, '0')}`);
/** A Belgian IBAN: BBAN = 10 digits and their mod 97 national check (97 when 0), unless `national` is given. */
function belgianIban(first10: string, national?: string): string {
  const key = Number(BigInt(first10) % 97n) || 97;
  return ibanOf('BE', `${first10}${national ?? String(key).padStart(2, '0')}`);
}
/** Valid IBANs for known, unknown and no-name banks, plus invalid and foreign inputs. */
const inputs = [
  ...banks.slice(0, 3).map((bank) => germanIban(bank.bankCode, '532013000')),
  germanIban('99999999', '1'),
  // The SWIFT IBAN Registry's Belgian example: a national check that passes, for a known bank (fixture 539)...
  'BE68539007547034',
  // ...and for an unknown one (the same account under bank code 540; check digits by ibanOf).
  belgianIban('5400075470'),
  // Belgian national check digits that do not match (54 for 5390075470 mod 97 = 34): invalid_national_checksum.
  belgianIban('5390075470', '54'),
  'DE00370400440532013000',
  'XX',
  'GB82WEST12345698765432',
  'de89 3704 0044 0532 0130 00',
  '"\u0000',
];

test('REST bytes of validation rows equal JSON.stringify for every bank, caller and verdict', () => {
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(...inputs), { minLength: 1, maxLength: 30 }),
      fc.constantFrom(...callers),
      (list, caller) => {
        const rows = validateList(list, caller, directory as unknown as BankDirectory);
        assert.deepEqual(outputJsonBytes(rows), Buffer.from(JSON.stringify(rows)));
        // A spread copy (what a replay or a worker transfer yields) has no tail and must serialize the same.
        assert.deepEqual(
          outputJsonBytes(rows.map((row) => ({ ...row }))),
          Buffer.from(JSON.stringify(rows)),
        );
      },
    ),
    { numRuns: 500 },
  );
});

test('the fixture IBANs are what the test means: valid for known, unknown and no-name banks', () => {
  const verdicts = inputs.slice(0, 7).map((input) => validateIban(input, directory));
  assert.deepEqual(
    verdicts.map((verdict) => [verdict.valid, verdict.nationalCheck]),
    [
      [true, 'not_checked'],
      [true, 'not_checked'],
      [true, 'not_checked'],
      [true, 'not_checked'],
      [true, 'passed'],
      [true, 'passed'],
      [false, 'failed'],
    ],
  );
  assert.equal(verdicts[6]?.error, 'invalid_national_checksum');
});

/** An input as a QA harness may send it: electronic, lower case, grouped in fours, or with one character changed. */
const variedInput = fc
  .tuple(
    fc.constantFrom(...inputs),
    fc.constantFrom('as is', 'lower', 'grouped', 'changed'),
    fc.nat(),
  )
  .map(([input, form, at]) => {
    if (form === 'lower') return input.toLowerCase();
    if (form === 'grouped') return input.replace(/(.{4})/g, '$1 ').trim();
    if (form === 'changed' && input.length > 0) {
      const index = at % input.length;
      return `${input.slice(0, index)}${String((at >> 4) % 10)}${input.slice(index + 1)}`;
    }
    return input;
  });

test('the answer written from bank tails is byte-identical to JSON.stringify of the rows, reveals counted from them', () => {
  fc.assert(
    fc.property(
      fc.array(variedInput, { minLength: 1, maxLength: 100 }),
      fc.constantFrom(...callers),
      (list, caller) => {
        const rows = validateList(list, caller, directory as unknown as BankDirectory);
        const answer = validateJsonAnswer(list, caller, directory as unknown as BankDirectory);
        assert.deepEqual(Buffer.from(answer.jsonView()), Buffer.from(JSON.stringify(rows)));
        // Written again (after another answer used the buffer): the same bytes.
        assert.deepEqual(Buffer.from(answer.jsonView()), Buffer.from(JSON.stringify(rows)));
        const shown = rows.filter(
          (row) => row.bank_match === 'matched' && !row.premium_fields_locked,
        );
        assert.equal(answer.revealed, shown.length);
      },
    ),
    { numRuns: 1_000 },
  );
});
