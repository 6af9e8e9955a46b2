// Validation rows carry a cached bank tail for the REST serializer: the bytes REST sends for them must be exactly
// Buffer.from(JSON.stringify(rows)) for every bank, visibility and verdict. Banks here are test fixtures (names
// with quotes, umlauts, astral characters; nulls), not registry facts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { validateIban } from '../../src/domain/iban/index.js';
import type { CallerView } from '../../src/ops/framework/op.js';
import { validateList } from '../../src/ops/iban/validate.js';
import type { BankDirectory, BankInfo } from '../../src/registry/bank-directory.js';
import { outputJsonBytes } from '../../src/render/json-bytes.js';

function fixtureBank(bankCode: string, name: string | null, city: string | null): BankInfo {
  return Object.freeze({
    countryCode: 'DE',
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
  });
}

const banks = [
  fixtureBank('37040044', 'Bank "Nord" Köln', 'Köln'),
  fixtureBank('10020030', null, null),
  fixtureBank('50010060', 'Ünïcode 😀 \\ bank', 'Zürich'),
];
/** What validateList reads of a directory (bankOf, accountCheckMethod), over the fixture banks. */
const directory = {
  bankOf: (country: string, code: string) =>
    country === 'DE' ? banks.find((bank) => bank.bankCode === code) : undefined,
  accountCheckMethod: () => undefined,
};
const callers: CallerView[] = [
  { keyId: null, plan: null, paid: false },
  { keyId: 'k', plan: 'free', paid: false },
  { keyId: 'k', plan: 'pro', paid: true },
  { keyId: 'k', plan: 'pro', paid: true, revealsSpent: true },
];
/** Valid German IBANs for the fixture banks (check digits computed by mod 97 here), plus invalid and foreign inputs. */
function germanIban(bankCode: string, account: string): string {
  const bban = `${bankCode}${account.padStart(10, '0')}`;
  const check = 98n - (BigInt(`${bban}131400`) % 97n); // D = 13, E = 14, check digits 00
  return `DE${String(check).padStart(2, '0')}${bban}`;
}
const inputs = [
  ...banks.map((bank) => germanIban(bank.bankCode, '532013000')),
  germanIban('99999999', '1'),
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
  const verdicts = inputs.slice(0, 4).map((input) => validateIban(input, directory));
  assert.deepEqual(
    verdicts.map((verdict) => verdict.valid),
    [true, true, true, true],
  );
});
