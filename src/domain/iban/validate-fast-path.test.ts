// Goal: the electronic-format fast path of validateIban (per-country runs of one character kind,
// two digits per MOD 97-10 step, rule checked in place) gives exactly the verdict of the general
// path, and the verdict's lazily sliced bank and branch codes read like plain fields.
// Method: random inputs of every country, some with one character of the wrong kind, validated
// as given (fast path) and in lower case with trailing spaces (general path: normalise, then the
// table loop; trailing, so character positions in messages stay the same).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requestKeyOf, rngBelow, rowRng } from '../rng.js';
import { bbanOffset, countryFormats, type CountryFormat } from './countries.js';
import { noRegistryContext } from './national/types.js';
import { validateIban, type IbanVerdict } from './validate.js';

const digits = '0123456789';
const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const samples = 30_000;
/** Characters the fast path must hand to the general path: wrong kind, lower case, non-ASCII. */
const intruders = ['A', '7', 'a', 'é', '٣', '-'];

function plain(verdict: IbanVerdict): IbanVerdict {
  const { valid, error, message, normalized, countryCode, bankCode, branchCode, nationalCheck } =
    verdict;
  return { valid, error, message, normalized, countryCode, bankCode, branchCode, nationalCheck };
}

function randomIban(format: CountryFormat, rng: ReturnType<typeof rowRng>): string {
  let bban = '';
  for (const part of format.parts) {
    const alphabet = part.kind === 'n' ? digits : part.kind === 'a' ? letters : digits + letters;
    for (let index = 0; index < part.length; index++)
      bban += alphabet.charAt(rngBelow(rng, alphabet.length));
  }
  return format.code + String(rngBelow(rng, 100)).padStart(2, '0') + bban;
}

describe('validateIban fast path', () => {
  it('gives the general path verdict on random inputs of every country, with and without a misplaced character', () => {
    const rng = rowRng(requestKeyOf('validate-fast-path', 'random'), 0);
    const reasons = new Set<string>();
    for (let sample = 0; sample < samples; sample++) {
      const format = countryFormats[sample % countryFormats.length] as CountryFormat;
      let iban = randomIban(format, rng);
      if (sample % 3 === 0) {
        const at = bbanOffset + rngBelow(rng, format.bbanLength);
        iban = iban.slice(0, at) + intruders[rngBelow(rng, intruders.length)] + iban.slice(at + 1);
      }
      const fast = plain(validateIban(iban, noRegistryContext));
      const general = plain(validateIban(`${iban.toLowerCase()}  `, noRegistryContext));
      reasons.add(fast.error ?? 'valid');
      // Lower-casing changes the normalized form only where the input had a non-ASCII upper-case letter.
      if (/^[\x20-\x7e]*$/.test(iban)) assert.deepEqual(fast, general, iban);
      else assert.equal(fast.error, general.error, iban);
    }
    for (const reason of ['invalid_characters', 'invalid_structure', 'invalid_checksum'])
      assert.ok(reasons.has(reason), reason);
  });

  it('accepts every registry example on the fast path with the registry bank and branch codes', () => {
    for (const format of countryFormats) {
      const verdict = validateIban(format.example, noRegistryContext);
      assert.equal(verdict.valid, true, format.example);
      const bank = format.bankCode;
      assert.equal(
        verdict.bankCode,
        format.example.slice(bbanOffset + bank.offset, bbanOffset + bank.offset + bank.length),
      );
      const branch = format.branchCode;
      const expected =
        branch === null
          ? null
          : format.example.slice(
              bbanOffset + branch.offset,
              bbanOffset + branch.offset + branch.length,
            );
      assert.equal(verdict.branchCode, expected, format.code);
      assert.equal(verdict.bankCode, verdict.bankCode, 'a second read gives the same value');
    }
  });

  it('serialises to JSON with every field, bank and branch codes included', () => {
    const verdict = validateIban('GB29NWBK60161331926819', noRegistryContext);
    assert.deepEqual(JSON.parse(JSON.stringify(verdict)), {
      valid: true,
      error: null,
      message: null,
      normalized: 'GB29NWBK60161331926819',
      countryCode: 'GB',
      bankCode: 'NWBK',
      branchCode: '601613',
      nationalCheck: 'not_applicable',
    });
    const failed = JSON.parse(
      JSON.stringify(validateIban('GB29NWBK6016133192681', noRegistryContext)),
    ) as IbanVerdict;
    assert.equal(failed.bankCode, null);
    assert.equal(failed.error, 'invalid_length');
  });
});
