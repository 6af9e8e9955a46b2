// The written validate answer (fused pass for electronic-form rows, validateIban for the rest) must be, byte for
// byte, JSON.stringify of the general path's rows (validateList: validateIban, string-keyed bank lookups, row
// objects), over the real registry the service builds from the embedded default: valid IBANs of every country it
// knows banks for, with its real bank codes, unknown banks, every invalid reason and paper forms, for every caller
// visibility. Then an import that changes a bank: the next answer carries the new data.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import type { CallerView } from '../../src/contract/op.js';
import { countryFormats, generateIban, type CountryFormat } from '../../src/domain/iban/index.js';
import { requestKeyOf, rowRng } from '../../src/domain/rng.js';
import {
  validateJsonAnswer,
  validateList,
  type ValidationRow,
} from '../../src/ops/iban/validate.js';
import type { BankDirectory, BankIds } from '../../src/registry/bank-directory.js';
import { LmdbDirectory } from '../../src/registry/lmdb-directory.js';
import { RegistryStore } from '../../src/registry/store/registry-store.js';
import { readFixture } from '../fixtures/registry/paths.js';
import { importIntoRegistry } from '../helpers/registry-import.js';
import { seedEmbeddedRegistry } from '../helpers/registry-template.js';

let dataDir: string;
let registry: RegistryStore;
let directory: BankDirectory;
/** Countries the registry knows banks of, and those banks' codes. */
let banked: { format: CountryFormat; codes: readonly string[] }[];

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ibanqa-validate-fused-'));
  await seedEmbeddedRegistry(dataDir);
  registry = RegistryStore.openReader(dataDir);
  directory = new LmdbDirectory(registry);
  banked = countryFormats
    .map((format) => ({ format, codes: directory.bankCodesOf(format.code) }))
    .filter((country) => country.codes.length > 0);
});
after(async () => {
  await registry.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const callers: CallerView[] = [
  { keyId: null, plan: null, paid: false },
  { keyId: 'k', plan: 'free', paid: false },
  { keyId: 'k', plan: 'pro', paid: true },
  { keyId: 'k', plan: 'pro', paid: true, revealsSpent: true },
];

/** An IBAN's check digits by BigInt mod 97 (letters as 10-35, 00 moved to the end): not the engine's code. */
function withCheckDigits(country: string, bban: string): string {
  const numeric = [...`${bban}${country}00`]
    .map((char) => (char >= 'A' ? String(char.charCodeAt(0) - 55) : char))
    .join('');
  const check = 98n - (BigInt(numeric) % 97n);
  return `${country}${String(check).padStart(2, '0')}${bban}`;
}

/** A generated IBAN of a country: with a real bank code of the registry, or with a random (mostly unknown) one. */
function generated(country: number, bank: number, seed: number, known: boolean): string {
  const { format, codes } = banked[country % banked.length]!;
  const rng = rowRng(requestKeyOf('validate-fused', String(seed)), 0);
  const options = known ? { bankCode: codes[bank % codes.length]! } : {};
  return generateIban(format, rng, options, directory).iban;
}

/** One input derived from an IBAN: as is, in paper form, or broken for one reason of the documented order. */
function formOf(iban: string, form: number, at: number): string {
  const bban = iban.slice(4);
  const country = iban.slice(0, 2);
  const position = 4 + (at % bban.length);
  switch (form) {
    case 0:
      return iban.toLowerCase(); // paper form
    case 1:
      return `IBAN ${iban.replace(/(.{4})/g, '$1 ').trim()}`; // printed form
    case 2:
      return `${iban.slice(0, position)}-${iban.slice(position + 1)}`; // invalid_characters
    case 3:
      return `XQ${iban.slice(2)}`; // unsupported_country
    case 4:
      return iban.slice(0, -1); // invalid_length
    case 5:
      return `${country}AB${bban}`; // invalid_structure (check digits not numeric)
    case 6: {
      const check = Number(iban.slice(2, 4));
      return `${country}${String(((check + 1 + (at % 90)) % 97) + 2).padStart(2, '0')}${bban}`; // invalid_checksum
    }
    case 7: {
      // One BBAN character changed, then the IBAN check digits made right: a national check, if any, may fail.
      const char = bban.charAt(position - 4);
      const changed = char >= '0' && char <= '9' ? String((Number(char) + 1) % 10) : char;
      return withCheckDigits(
        country,
        bban.slice(0, position - 4) + changed + bban.slice(position - 3),
      );
    }
    default:
      return iban;
  }
}

const input = fc
  .record({
    country: fc.nat(),
    bank: fc.nat(),
    seed: fc.nat(),
    known: fc.boolean(),
    form: fc.nat({ max: 16 }),
    at: fc.nat(),
  })
  .map(({ country, bank, seed, known, form, at }) =>
    formOf(generated(country, bank, seed, known || form > 10), form, at),
  );

function generalBytes(list: readonly string[], caller: CallerView): Buffer {
  return Buffer.from(JSON.stringify(validateList(list, caller, directory)));
}

function shownRows(rows: readonly ValidationRow[]): number {
  return rows.filter((row) => row.bank_match === 'matched' && !row.premium_fields_locked).length;
}

test('the registry knows banks of several countries (the lists below use their codes)', () => {
  assert.ok(banked.length >= 10, banked.map((country) => country.format.code).join(' '));
});

test('valid IBANs of every banked country with real bank codes: the written answer is the general path to the byte', () => {
  for (const caller of callers) {
    const list = banked.flatMap((_, country) =>
      [0, 1, 2].map((bank) => generated(country, bank * 7919, country * 3 + bank, true)),
    );
    const rows = validateList(list, caller, directory);
    let found = 0;
    const ids = directory.bankIds();
    const countingIds: BankIds = {
      idOf: (country, key) => {
        const id = ids.idOf(country, key);
        if (id >= 0) found++;
        return id;
      },
      bankOf: (id) => ids.bankOf(id),
    };
    const counting = Object.create(directory) as BankDirectory;
    counting.bankIds = () => countingIds;
    validateJsonAnswer(list, caller, counting); // the first answer encodes the tails
    found = 0;
    const answer = validateJsonAnswer(list, caller, counting);
    assert.ok(found >= list.length * 0.9, `banks found by key: ${found} of ${list.length}`);
    assert.deepEqual(Buffer.from(answer.jsonView()), generalBytes(list, caller));
    assert.equal(
      answer.revealed,
      caller.paid && caller.revealsSpent !== true ? shownRows(rows) : 0,
    );
    if (caller.paid && caller.revealsSpent !== true)
      assert.ok(shownRows(rows) > banked.length, 'most rows show a bank: the tails were used');
  }
});

test('mixed lists (known and unknown banks, paper forms, every invalid reason): byte-identical, reveals counted', () => {
  const reasons = new Set<string>();
  fc.assert(
    fc.property(
      fc.array(input, { minLength: 1, maxLength: 100 }),
      fc.constantFrom(...callers),
      (list, caller) => {
        const rows = validateList(list, caller, directory);
        for (const row of rows) reasons.add(row.error ?? row.bank_match);
        const answer = validateJsonAnswer(list, caller, directory);
        const expected = Buffer.from(JSON.stringify(rows));
        assert.deepEqual(Buffer.from(answer.jsonView()), expected);
        // Written twice (the answer buffer is reused): the same bytes.
        assert.deepEqual(Buffer.from(answer.jsonView()), expected);
        const paidShown = caller.paid && caller.revealsSpent !== true;
        assert.equal(answer.revealed, paidShown ? shownRows(rows) : 0);
      },
    ),
    { numRuns: 300 },
  );
  for (const reason of [
    'invalid_characters',
    'unsupported_country',
    'invalid_length',
    'invalid_structure',
    'invalid_checksum',
    'invalid_national_checksum',
    'matched',
    'no_match',
  ])
    assert.ok(reasons.has(reason), `the lists held a row of ${reason}`);
});

test('after an import that changes a bank, the next written answer carries the new data', async () => {
  // The synthetic Bundesbank fixture's bank 99999901 (test/fixtures/registry); account 0001000009 passes its
  // method 00; the IBAN is electronic, so the fused pass (bank by key) answers it.
  const iban = 'DE83999999010001000009';
  const caller = callers[2] as CallerView;
  const original = readFixture('bundesbank-synthetic-latin1.txt');
  const importNamed = (name: string, snapshotDate: string) => {
    const text = Buffer.from(original)
      .toString('latin1')
      .replace('Synthetische Testbank Köln', name);
    return importIntoRegistry(dataDir, [
      {
        file: {
          sourceId: 'bundesbank-blz',
          bytes: Buffer.from(text, 'latin1'),
          fileName: 'bundesbank-synthetic.txt',
          snapshotDate,
        },
      },
    ]);
  };
  const bankName = () => {
    directory.syncVersion(); // as the service does once per request
    const written = Buffer.from(validateJsonAnswer([iban], caller, directory).jsonView());
    assert.deepEqual(written, generalBytes([iban], caller));
    return (JSON.parse(written.toString('utf8')) as { bank_name: string | null }[])[0]?.bank_name;
  };
  await importNamed('Synthetische Testbank Köln', '2026-01-01');
  assert.equal(bankName(), 'Synthetische Testbank Köln');
  await importNamed('Synthetische Testbank Bonn', '2026-02-01');
  assert.equal(bankName(), 'Synthetische Testbank Bonn');
});
