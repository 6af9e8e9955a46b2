// Goal: the charCode MOD 97-10 matches the ISO 7064 definition on any input. Method: registry
// examples, and random strings compared with a BigInt reference of the textbook algorithm.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { requestKeyOf, rngBelow, rowRng } from '../rng.js';
import { countryFormats } from './countries.js';
import { ibanCheckDigits, ibanMod97, mod97Continue } from './mod97.js';

const alphanumerics = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const randomStrings = 5_000;

/** The textbook definition: rearrange, expand letters to 10..35, one big integer mod 97. */
function referenceMod97(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let digits = '';
  for (const char of rearranged) digits += String(alphanumerics.indexOf(char));
  return Number(BigInt(digits) % 97n);
}

describe('ibanMod97', () => {
  it('gives 1 for every registry example', () => {
    for (const format of countryFormats) assert.equal(ibanMod97(format.example), 1, format.example);
  });

  it('equals the BigInt reference on random alphanumeric strings of every length', () => {
    const rng = rowRng(requestKeyOf('mod97-test', 'random'), 0);
    for (let round = 0; round < randomStrings; round++) {
      const length = 5 + rngBelow(rng, 30);
      let text = '';
      for (let index = 0; index < length; index++)
        text += alphanumerics.charAt(rngBelow(rng, alphanumerics.length));
      assert.equal(ibanMod97(text), referenceMod97(text), text);
    }
  });

  it('keeps the exact remainder on long runs of letters (the largest per-step growth)', () => {
    const text = `ZZ00${'Z'.repeat(30)}`;
    assert.equal(ibanMod97(text), referenceMod97(text));
  });
});

describe('mod97Continue', () => {
  it('can be resumed at any split point', () => {
    const text = 'GB29NWBK60161331926819';
    const whole = mod97Continue(0, text, 0, text.length) % 97;
    for (let split = 0; split <= text.length; split++) {
      const first = mod97Continue(0, text, 0, split);
      assert.equal(mod97Continue(first, text, split, text.length) % 97, whole, `split ${split}`);
    }
  });
});

describe('ibanCheckDigits', () => {
  it('reproduces the check digits of every registry example', () => {
    for (const format of countryFormats) {
      assert.equal(
        ibanCheckDigits(format.code, format.example.slice(4)),
        format.example.slice(2, 4),
        format.example,
      );
    }
  });

  it('always answers two digits between 02 and 98 that make the IBAN valid', () => {
    const rng = rowRng(requestKeyOf('mod97-test', 'check-digits'), 0);
    for (let round = 0; round < randomStrings; round++) {
      let bban = '';
      for (let index = 0; index < 18; index++)
        bban += alphanumerics.charAt(rngBelow(rng, alphanumerics.length));
      const digits = ibanCheckDigits('DE', bban);
      assert.match(digits, /^\d\d$/);
      assert.ok(Number(digits) >= 2 && Number(digits) <= 98, digits);
      assert.equal(ibanMod97(`DE${digits}${bban}`), 1);
    }
  });
});
