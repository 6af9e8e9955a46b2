// Goal: validateIban gives the documented reason, most specific first, with a precise message,
// and its fused one-pass checksum equals the reference MOD 97-10. Method: hand-made inputs for
// every reason and every pair of competing reasons, then random inputs against ibanMod97.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { requestKeyOf, rngBelow, rowRng } from '../rng.js';
import { nationalCheck, nationalRuleOf } from './national/index.js';
import { noRegistryContext, type NationalContext } from './national/types.js';
import { countryFormatOf, countryFormats, type CountryFormat } from './countries.js';
import { generateIban } from './generate.js';
import { ibanCheckDigits, ibanMod97 } from './mod97.js';
import { validateIban } from './validate.js';

const context: NationalContext = noRegistryContext;
const de = 'DE89370400440532013000';
const alphanumerics = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const randomInputs = 20_000;

function formatOf(code: string): CountryFormat {
  const format = countryFormatOf(code);
  assert.ok(format !== undefined, code);
  return format;
}

describe('validateIban: valid input', () => {
  it('accepts electronic format, print format, lower case and stray spaces alike', () => {
    for (const input of [
      de,
      'DE89 3704 0044 0532 0130 00',
      'de89370400440532013000',
      '  de89 37040044 0532013000 ',
    ]) {
      const verdict = validateIban(input, context);
      assert.equal(verdict.valid, true, input);
      assert.equal(verdict.error, null);
      assert.equal(verdict.message, null);
      assert.equal(verdict.normalized, de);
      assert.equal(verdict.countryCode, 'DE');
      assert.equal(verdict.bankCode, '37040044');
      assert.equal(verdict.branchCode, null);
    }
  });

  it('accepts the paper format of ISO 13616-1, a leading "IBAN " (any case, any spaces after it)', () => {
    // ISO 13616-1 and the SWIFT IBAN Registry print the example as "IBAN DE89 3704 0044 0532 0130 00".
    for (const input of [
      'IBAN DE89 3704 0044 0532 0130 00',
      'iban DE89370400440532013000',
      'IBAN   de89 3704 0044 0532 0130 00',
    ]) {
      const verdict = validateIban(input, context);
      assert.equal(verdict.valid, true, input);
      assert.equal(verdict.normalized, de);
      assert.equal(verdict.bankCode, '37040044');
    }
    const gb = validateIban('IBAN GB29 NWBK 6016 1331 9268 19', context);
    assert.equal(gb.valid, true);
    assert.equal(gb.branchCode, '601613');
  });

  it('takes "IBAN" only as the printed prefix: followed by a space, never glued or with punctuation', () => {
    assert.equal(validateIban('IBANDE89370400440532013000', context).error, 'unsupported_country');
    assert.equal(validateIban('IBAN:DE89370400440532013000', context).error, 'invalid_characters');
    assert.equal(
      validateIban('IBAN ', context).message,
      'the IBAN is empty',
      'the word alone is not an IBAN',
    );
    const wrongDigit = validateIban('IBAN DE89 3704 0044 0532 0130 01', context);
    assert.equal(wrongDigit.error, 'invalid_checksum');
    const badCharacter = validateIban('IBAN DE89-3704', context);
    assert.equal(badCharacter.error, 'invalid_characters');
    assert.match(
      badCharacter.message ?? '',
      /^character 10 \('-'\)/,
      'the position counts from the start of the input',
    );
  });

  it('returns bank and branch codes at the registry positions', () => {
    const gb = validateIban('GB29NWBK60161331926819', context);
    assert.deepEqual([gb.bankCode, gb.branchCode], ['NWBK', '601613']);
    const it = validateIban('IT60X0542811101000000123456', context);
    assert.deepEqual([it.bankCode, it.branchCode], ['05428', '11101']);
  });

  it('treats a national not_checked as valid (DE without a known check method)', () => {
    const verdict = validateIban(de, context);
    assert.equal(verdict.valid, true);
    assert.equal(verdict.nationalCheck, 'not_checked');
  });

  it('says not_applicable where a country has no national rule', () => {
    assert.equal(validateIban('GB29NWBK60161331926819', context).nationalCheck, 'not_applicable');
    assert.equal(validateIban('NL91ABNA0417164300', context).nationalCheck, 'not_applicable');
  });
});

describe('validateIban: each reason and its message', () => {
  const cases: readonly (readonly [string, string, string])[] = [
    ['', 'invalid_length', 'the IBAN is empty'],
    ['   ', 'invalid_length', 'the IBAN is empty'],
    ['D', 'invalid_length', 'the IBAN is too short to hold a country code'],
    [
      'DE89\u00a03704',
      'invalid_characters',
      'character 5 (U+00A0) is not allowed in an IBAN: only letters A-Z, digits 0-9 and spaces (U+0020) are accepted',
    ],
    [
      'DE89-3704',
      'invalid_characters',
      "character 5 ('-') is not allowed in an IBAN: only letters A-Z, digits 0-9 and spaces (U+0020) are accepted",
    ],
    [
      'XX89370400440532013000',
      'unsupported_country',
      '"XX" is not an IBAN country code of the SWIFT IBAN Registry',
    ],
    [
      'US89370400440532013000',
      'unsupported_country',
      '"US" is not an IBAN country code of the SWIFT IBAN Registry',
    ],
    [
      '1289370400440532013000',
      'unsupported_country',
      'an IBAN starts with a two-letter country code, got "12"',
    ],
    ['DE8937040044053201300', 'invalid_length', 'DE IBANs have 22 characters, got 21'],
    ['DE893704004405320130000', 'invalid_length', 'DE IBANs have 22 characters, got 23'],
    [
      'DEXX370400440532013000',
      'invalid_structure',
      'characters 3-4 must be two check digits, got "XX"',
    ],
    [
      'DE8937040044053201300A',
      'invalid_structure',
      "DE BBAN format is 8!n10!n: character 22 must be a digit, got 'A'",
    ],
    [
      'GB29NW1K60161331926819',
      'invalid_structure',
      "GB BBAN format is 4!a6!n8!n: character 7 must be an upper-case letter, got '1'",
    ],
    [
      'DE88370400440532013000',
      'invalid_checksum',
      'IBAN checksum (ISO 7064 MOD 97-10) fails: remainder 0, check digits 88, expected 89',
    ],
    [
      'DE00370400440532013000',
      'invalid_checksum',
      'check digits 00 are never issued (valid check digits run from 02 to 98); this BBAN needs 89',
    ],
  ];

  it('names the reason and explains it', () => {
    for (const [input, error, message] of cases) {
      const verdict = validateIban(input, context);
      assert.equal(verdict.valid, false, input);
      assert.equal(verdict.error, error, input);
      assert.equal(verdict.message, message, input);
      assert.equal(verdict.nationalCheck, 'not_applicable', input);
    }
  });

  it('keeps the country code once known and bank fields only once the structure holds', () => {
    assert.equal(validateIban('DE8937040044053201300', context).countryCode, 'DE');
    assert.equal(validateIban('DE8937040044053201300', context).bankCode, null);
    assert.equal(validateIban('DE88370400440532013000', context).bankCode, '37040044');
    assert.equal(validateIban('XX89370400440532013000', context).countryCode, null);
  });

  it('reports invalid_national_checksum for a MOD-97-valid IBAN with wrong national digits', () => {
    const withRules = countryFormats.filter(
      (format) => format.code !== 'DE' && nationalRuleOf(format.code) !== undefined,
    );
    assert.ok(withRules.length >= 20, 'the national rules are registered');
    for (const format of withRules) {
      const bban = format.example.slice(4);
      const broken = breakNationally(format, bban);
      const iban = format.code + ibanCheckDigits(format.code, broken) + broken;
      const verdict = validateIban(iban, context);
      assert.equal(ibanMod97(iban), 1, iban);
      assert.equal(verdict.error, 'invalid_national_checksum', iban);
      assert.equal(verdict.nationalCheck, 'failed');
      assert.match(
        verdict.message ?? '',
        new RegExp(`^${format.code} national check digits do not match`),
      );
    }
  });
});

/** First single-digit change the national rule rejects (it exists for every checkable rule). */
function breakNationally(format: CountryFormat, bban: string): string {
  for (let position = bban.length - 1; position >= 0; position--) {
    const current = bban.charAt(position);
    if (current < '0' || current > '9') continue;
    const changed =
      bban.slice(0, position) + String((Number(current) + 1) % 10) + bban.slice(position + 1);
    if (nationalCheck(format.code, changed, context) === 'failed') return changed;
  }
  return assert.fail(`no single-digit change breaks the ${format.code} rule`);
}

describe('validateIban: the most specific reason wins', () => {
  it('orders characters > country > length > structure > checksum', () => {
    const ordered: readonly (readonly [string, string])[] = [
      ['XX-1', 'invalid_characters'], // bad character, unknown country and wrong length
      ['DÉ89370400440532013000', 'invalid_characters'],
      ['XX8937', 'unsupported_country'], // unknown country and wrong length
      ['DE89A7040044053201300', 'invalid_length'], // wrong length and a letter in a digit position
      ['DE00A70400440532013000', 'invalid_structure'], // bad structure and check digits 00
      ['DEXX370400440532013000', 'invalid_structure'],
    ];
    for (const [input, error] of ordered)
      assert.equal(validateIban(input, context).error, error, input);
  });

  it('rejects check digits 00, 01 and 99 even when MOD 97-10 gives 1', () => {
    const aliases: Record<string, string> = { '02': '99', '97': '00', '98': '01' };
    const found = new Set<string>();
    const key = requestKeyOf('validate-test', 'aliases');
    for (let row = 0; found.size < 3 && row < 5_000; row++) {
      const generated = generateIban(formatOf('DE'), rowRng(key, row), {}, context);
      const alias = aliases[generated.iban.slice(2, 4)];
      if (alias === undefined || found.has(alias)) continue;
      found.add(alias);
      const input = `DE${alias}${generated.bban}`;
      assert.equal(ibanMod97(input), 1, input);
      const verdict = validateIban(input, context);
      assert.equal(verdict.error, 'invalid_checksum', input);
      assert.match(verdict.message ?? '', new RegExp(`^check digits ${alias} are never issued`));
    }
    assert.equal(found.size, 3, 'found BBANs for all three aliases');
  });
});

describe('validateIban: the one-pass checksum', () => {
  it('agrees with ibanMod97 on random structurally valid inputs of every country', () => {
    const rng = rowRng(requestKeyOf('validate-test', 'random'), 0);
    for (let round = 0; round < randomInputs; round++) {
      const format = countryFormats[rngBelow(rng, countryFormats.length)] as CountryFormat;
      let bban = '';
      for (const part of format.parts) {
        const alphabet =
          part.kind === 'n'
            ? '0123456789'
            : part.kind === 'a'
              ? 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
              : alphanumerics;
        for (let index = 0; index < part.length; index++)
          bban += alphabet.charAt(rngBelow(rng, alphabet.length));
      }
      const digits = String(rngBelow(rng, 100)).padStart(2, '0');
      const iban = format.code + digits + bban;
      const verdict = validateIban(iban, context);
      const checksumHolds = ibanMod97(iban) === 1 && Number(digits) >= 2 && Number(digits) <= 98;
      assert.equal(verdict.error === 'invalid_checksum', !checksumHolds, iban);
      assert.equal(
        validateIban(iban.toLowerCase(), context).error,
        verdict.error,
        'same verdict after normalising',
      );
    }
  });
});
