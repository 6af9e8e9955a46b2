// Goal: the verdict-free scan (scanElectronic, nationalOutcomeOf) judges an input as validateIban does, and its bank
// key is one number per bank code of a country. Method: random inputs of every country (valid, with a changed
// character, lower case, grouped), each scanned and validated; a scanned input must be one validateIban finds valid
// or failing only its national check, with the same outcome; every input validateIban accepts in electronic form
// must scan. Bank keys are compared with bankCodeKey of the verdict's bank code (a second reading: from a string)
// and checked one-to-one over random codes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requestKeyOf, rngBelow, rowRng } from '../rng.js';
import { bbanKinds, bbanOffset, countryFormats, type CountryFormat } from './countries.js';
import {
  bankCodeKey,
  bankCodeSpanOf,
  countryIndexOf,
  ElectronicScan,
  nationalOutcomeOf,
  scanElectronic,
} from './electronic-scan.js';
import { ibanCheckDigits } from './mod97.js';
import type { NationalContext } from './national/types.js';
import { validateIban } from './validate.js';

const digits = '0123456789';
const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const samples = 20_000;
type Rng = ReturnType<typeof rowRng>;

/** Every German bank uses method 00 here, so DE rows pass and fail their national check both. */
const methodContext: NationalContext = {
  accountCheckMethod: (country) => (country === 'DE' ? '00' : undefined),
};

function randomBban(format: CountryFormat, rng: Rng): string {
  let bban = '';
  for (const kind of bbanKinds(format)) {
    const alphabet = kind === 'n' ? digits : kind === 'a' ? letters : digits + letters;
    bban += alphabet.charAt(rngBelow(rng, alphabet.length));
  }
  return bban;
}

/** A checksum-valid IBAN of the country (check digits from mod97.ts, which the scan does not use). */
function randomIban(format: CountryFormat, rng: Rng): string {
  const bban = randomBban(format, rng);
  return `${format.code}${ibanCheckDigits(format.code, bban)}${bban}`;
}

function variant(iban: string, rng: Rng): string {
  switch (rngBelow(rng, 6)) {
    case 0: {
      const at = rngBelow(rng, iban.length);
      return iban.slice(0, at) + (digits + letters).charAt(rngBelow(rng, 36)) + iban.slice(at + 1);
    }
    case 1:
      return iban.toLowerCase();
    case 2:
      return iban.replace(/(.{4})/g, '$1 ').trim();
    case 3:
      return iban.slice(0, -1);
    default:
      return iban;
  }
}

describe('scanElectronic', () => {
  it('scans exactly the electronic-form inputs validateIban finds checksum-valid, with its national outcome', () => {
    const rng = rowRng(requestKeyOf('electronic-scan', 'random'), 0);
    const scan = new ElectronicScan();
    const seen = new Set<string>();
    for (let sample = 0; sample < samples; sample++) {
      const format = countryFormats[sample % countryFormats.length] as CountryFormat;
      const input = variant(randomIban(format, rng), rng);
      const verdict = validateIban(input, methodContext);
      const scanned = scanElectronic(input, scan);
      const electronic = verdict.normalized === input;
      const checksumValid = verdict.valid || verdict.error === 'invalid_national_checksum';
      assert.equal(scanned, electronic && checksumValid, input);
      if (!scanned) {
        seen.add(verdict.error ?? 'paper form');
        continue;
      }
      const outcome = nationalOutcomeOf(input, scan, methodContext);
      assert.equal(outcome, verdict.nationalCheck, input);
      assert.equal(countryFormats[scan.country]?.code, verdict.countryCode, input);
      assert.equal(scan.bankKey, bankCodeKey(scan.country, verdict.bankCode as string), input);
      const [start, end] = bankCodeSpanOf(scan.country);
      assert.equal(input.slice(start, end), verdict.bankCode, input);
      seen.add(outcome);
    }
    for (const expected of ['invalid_checksum', 'invalid_length', 'paper form', 'passed', 'failed'])
      assert.ok(seen.has(expected), expected);
  });

  it('accepts every registry example', () => {
    const scan = new ElectronicScan();
    for (const format of countryFormats) {
      assert.equal(scanElectronic(format.example, scan), true, format.code);
      assert.equal(scan.country, countryIndexOf(format.code));
    }
  });

  it('refuses check digits 00, 01 and 99 even where the remainder works out', () => {
    const scan = new ElectronicScan();
    for (const format of countryFormats) {
      const bban = format.example.slice(bbanOffset);
      for (const check of ['00', '01', '99']) {
        const input = `${format.code}${check}${bban}`;
        assert.equal(scanElectronic(input, scan), false, input);
        assert.equal(validateIban(input, methodContext).valid, false, input);
      }
    }
  });
});

describe('bank keys', () => {
  it('are one-to-one on the bank codes of each country, and refuse codes no IBAN can carry', () => {
    const rng = rowRng(requestKeyOf('electronic-scan', 'keys'), 0);
    countryFormats.forEach((format, country) => {
      const kinds = bbanKinds(format).slice(
        format.bankCode.offset,
        format.bankCode.offset + format.bankCode.length,
      );
      const codeOf = new Map<number, string>();
      for (let sample = 0; sample < 300; sample++) {
        const code = kinds
          .map((kind) => {
            const alphabet = kind === 'n' ? digits : kind === 'a' ? letters : digits + letters;
            return alphabet.charAt(rngBelow(rng, alphabet.length));
          })
          .join('');
        const key = bankCodeKey(country, code);
        assert.ok(Number.isSafeInteger(key) && key >= 0 && key < 2 ** 30, `${format.code} ${code}`);
        const before = codeOf.get(key);
        assert.ok(before === undefined || before === code, `${format.code}: ${before} and ${code}`);
        codeOf.set(key, code);
      }
      assert.equal(bankCodeKey(country, '1'.repeat(kinds.length + 1)), -1, format.code);
      assert.equal(bankCodeKey(country, 'a'.repeat(kinds.length)), -1, format.code);
    });
  });

  it('names countries by their index in countryFormats', () => {
    countryFormats.forEach((format, index) => assert.equal(countryIndexOf(format.code), index));
    for (const code of ['XX', 'de', 'D', 'DEU', '']) assert.equal(countryIndexOf(code), -1, code);
  });
});
