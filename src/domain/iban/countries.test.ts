// Goal: the country table holds exactly the SWIFT IBAN Registry countries, each internally
// consistent, and every registry example validates. Method: check every row, and cross-check
// lengths and examples against ibantools' countrySpecs (an independent transcription).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { AssertionFailure } from '../../assert.js';
import { requestKeyOf, rngPick, rowRng } from '../rng.js';
import { noRegistryContext } from './national/types.js';
import {
  bbanKinds,
  countryFormatOf,
  countryFormats,
  ibanLengthMax,
  parseBbanSpec,
} from './countries.js';
import { ibanMod97 } from './mod97.js';
import { validateIban } from './validate.js';

interface IbantoolsSpec {
  readonly chars?: number;
  readonly bban_regexp?: string;
}
const ibantools = createRequire(import.meta.url)('ibantools') as {
  countrySpecs: Record<string, IbantoolsSpec>;
};

/** The 89 IBAN prefixes of the registry text (releases 99 to 102 list the same set). */
const registryCodes =
  'AD AE AL AT AZ BA BE BG BH BI BR BY CH CR CY CZ DE DJ DK DO EE EG ES FI FK FO FR GB GE GI GL GR GT HN ' +
  'HR HU IE IL IQ IS IT JO KW KZ LB LC LI LT LU LV LY MC MD ME MK MN MR MT MU NI NL NO OM PK PL PS PT QA ' +
  'RO RS RU SA SC SD SE SI SK SM SO ST SV TL TN TR UA VA VG XK YE';

/** Registry structures newer than ibantools 4.5.4's regular expressions (bank code now 4!c or 4!a). */
const alphabets = {
  n: '0123456789',
  a: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  c: '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ',
};
const drawsPerCountry = 200;

const ibantoolsOutdated = new Set(['BY', 'DO', 'PK', 'PS']);

describe('countryFormats', () => {
  it('holds the 89 registry countries, once each', () => {
    assert.deepEqual(countryFormats.map((format) => format.code).join(' '), registryCodes);
    assert.equal(countryFormats.length, 89);
  });

  it('derives lengths from the BBAN structure, within the ISO 13616 maximum', () => {
    for (const format of countryFormats) {
      const partsLength = format.parts.reduce((sum, part) => sum + part.length, 0);
      assert.equal(format.bbanLength, partsLength, format.code);
      assert.equal(format.ibanLength, format.bbanLength + 4, format.code);
      assert.ok(format.ibanLength <= ibanLengthMax, format.code);
      assert.deepEqual(parseBbanSpec(format.bbanSpec), format.parts, format.code);
    }
  });

  it('places bank, branch, account and national digits inside the BBAN and covers every position', () => {
    for (const format of countryFormats) {
      const covered = new Array<boolean>(format.bbanLength).fill(false);
      for (const span of [
        format.bankCode,
        format.branchCode,
        format.accountNumber,
        format.nationalCheckDigits,
      ]) {
        if (span === null) continue;
        assert.ok(span.offset >= 0 && span.length > 0, format.code);
        assert.ok(span.offset + span.length <= format.bbanLength, format.code);
        covered.fill(true, span.offset, span.offset + span.length);
      }
      assert.ok(covered.every(Boolean), `${format.code} components cover the BBAN`);
    }
  });

  it('has registry examples that validate (structure, MOD 97-10 and national rule)', () => {
    for (const format of countryFormats) {
      assert.equal(ibanMod97(format.example), 1, format.example);
      const verdict = validateIban(format.example, noRegistryContext);
      assert.equal(verdict.error, null, `${format.example}: ${verdict.message ?? ''}`);
      assert.equal(verdict.countryCode, format.code);
    }
  });

  it('agrees with ibantools on every IBAN length and (where current) the BBAN format', () => {
    for (const format of countryFormats) {
      const spec = ibantools.countrySpecs[format.code];
      assert.ok(spec !== undefined, format.code);
      assert.equal(spec.chars, format.ibanLength, format.code);
      if (ibantoolsOutdated.has(format.code)) continue;
      assert.match(format.example.slice(4), new RegExp(spec.bban_regexp ?? '^$'), format.code);
      // Same character kinds: any BBAN our kinds allow matches ibantools' expression.
      const pattern = new RegExp(spec.bban_regexp ?? '^$');
      const rng = rowRng(requestKeyOf('countries-test', format.code), 0);
      for (let draw = 0; draw < drawsPerCountry; draw++) {
        const bban = bbanKinds(format)
          .map((kind) => rngPick(rng, [...alphabets[kind]]))
          .join('');
        assert.match(bban, pattern, format.code);
      }
    }
  });

  it('flags the registry SEPA countries', () => {
    const sepa = countryFormats.filter((format) => format.sepa).map((format) => format.code);
    assert.equal(sepa.length, 37);
    for (const code of ['DE', 'FR', 'CH', 'GB', 'NO', 'VA', 'SM', 'AD', 'MC'])
      assert.ok(sepa.includes(code), code);
    for (const code of ['TR', 'RS', 'UA', 'BR', 'AL']) assert.ok(!sepa.includes(code), code);
  });
});

describe('countryFormatOf', () => {
  it('finds a format by upper-case alpha-2 code only', () => {
    assert.equal(countryFormatOf('DE')?.name, 'Germany');
    assert.equal(countryFormatOf('de'), undefined);
    assert.equal(countryFormatOf('XX'), undefined);
    assert.equal(countryFormatOf('US'), undefined);
  });
});

describe('parseBbanSpec', () => {
  it('reads SWIFT notation', () => {
    assert.deepEqual(parseBbanSpec('4!a6!n8!n'), [
      { kind: 'a', length: 4 },
      { kind: 'n', length: 6 },
      { kind: 'n', length: 8 },
    ]);
    assert.deepEqual(parseBbanSpec('12!c'), [{ kind: 'c', length: 12 }]);
  });

  it('rejects variable-length or unknown elements', () => {
    assert.throws(() => parseBbanSpec('4a6!n'), AssertionFailure);
    assert.throws(() => parseBbanSpec('4!x'), AssertionFailure);
  });
});
