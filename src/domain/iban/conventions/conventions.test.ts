// Goal: every registry country's generated BBAN follows its national convention (the table in conventions/) and
// stays valid: ibantools (an independent implementation) accepts every IBAN, the national check passes where a
// rule exists, each field holds only what its convention allows, and the README table is the rendered table.
// Method: 400 seeded rows per country, plus GB rows at every registry bank code; expected sets below are written
// out from the sources (not read from the table) for the countries the issue names.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { isValidIBAN } from 'ibantools';
import { requestKeyOf, rowRng } from '../../rng.js';
import { countryFormatOf, countryFormats, type CountryFormat } from '../countries.js';
import { generateIban } from '../generate.js';
import { nationalRuleOf } from '../national/index.js';
import { noRegistryContext } from '../national/types.js';
import { validateIban } from '../validate.js';
import { conventionOf } from './index.js';
import { conventionsMarkdown } from './markdown.js';

const rowsPerCountry = 400;
const context = noRegistryContext;

function formatOf(code: string): CountryFormat {
  const format = countryFormatOf(code);
  assert.ok(format !== undefined, code);
  return format;
}

function rowsOf(format: CountryFormat, count = rowsPerCountry, bankCode?: string): string[] {
  const key = requestKeyOf('conventions-test', format.code + (bankCode ?? ''));
  const options = bankCode === undefined ? {} : { bankCode };
  return Array.from(
    { length: count },
    (_, row) => generateIban(format, rowRng(key, row), options, context).bban,
  );
}

/** 1-based inclusive BBAN slice, as the sources print positions. */
function at(bban: string, from: number, to: number): string {
  return bban.slice(from - 1, to);
}

describe('BBAN conventions: every registry country', () => {
  it('has a convention whose rules sit inside the BBAN and cite a public source', () => {
    for (const format of countryFormats) {
      const convention = conventionOf(format);
      for (const rule of convention.rules) {
        assert.ok(
          rule.from >= 1 && rule.from <= rule.to && rule.to <= format.bbanLength,
          format.code,
        );
        assert.ok(rule.sources.length > 0, `${format.code} ${rule.field} has a source`);
        for (const source of rule.sources) {
          assert.ok(source.issuer !== '' && source.title !== '' && source.section !== '');
          assert.match(source.url, /^https?:\/\/[^\s]+$/);
        }
      }
    }
  });

  it(`gives ${rowsPerCountry} IBANs per country that ibantools accepts, national check passed where a rule exists`, () => {
    for (const format of countryFormats) {
      const key = requestKeyOf('conventions-test', `valid-${format.code}`);
      const expected = nationalRuleOf(format.code) === undefined ? 'not_applicable' : 'passed';
      for (let row = 0; row < rowsPerCountry; row++) {
        const generated = generateIban(format, rowRng(key, row), {}, context);
        assert.ok(isValidIBAN(generated.iban), `ibantools rejects ${generated.iban}`);
        assert.equal(validateIban(generated.iban, context).valid, true, generated.iban);
        // DE needs the bank's method from the registry; without a registry it is not_checked.
        if (format.code !== 'DE') assert.equal(generated.nationalCheck, expected, generated.iban);
      }
    }
  });

  it('keeps every field inside its convention (alphabets per position, whole-field value sets)', () => {
    for (const format of countryFormats) {
      const rules = conventionOf(format).rules;
      for (const bban of rowsOf(format)) {
        for (const rule of rules) {
          const value = at(bban, rule.from, rule.to);
          if (rule.draw.kind === 'alphabet') {
            const alphabet = rule.draw.alphabet;
            assert.ok(
              [...value].every((char) => alphabet.includes(char)),
              `${format.code} ${rule.field} ${bban}`,
            );
          } else if (rule.draw.kind === 'one-of') {
            assert.ok(rule.draw.values.includes(value), `${format.code} ${rule.field} ${bban}`);
          }
        }
      }
    }
  });
});

describe('BBAN conventions: the countries of the issue, against sets written from the sources', () => {
  it('FR and MC accounts are digits; PK and PS accounts are digits', () => {
    for (const [code, from, to] of [
      ['FR', 11, 21],
      ['MC', 11, 21],
      ['PK', 5, 20],
      ['PS', 5, 25],
    ] as const) {
      for (const bban of rowsOf(formatOf(code)))
        assert.match(at(bban, from, to), /^[0-9]+$/, `${code} ${bban}`);
    }
  });

  it('TR: the reserve digit (BBAN 6) is 0, the account numeric', () => {
    for (const bban of rowsOf(formatOf('TR'))) {
      assert.equal(at(bban, 6, 6), '0', bban);
      assert.match(at(bban, 7, 22), /^[0-9]{16}$/, bban);
    }
  });

  it('MU: the currency is MUR, USD or EUR, mostly MUR, each occurring; SC: SCR or USD', () => {
    const currencies = rowsOf(formatOf('MU')).map((bban) => at(bban, 24, 26));
    assert.ok(
      currencies.every((code) => ['MUR', 'USD', 'EUR'].includes(code)),
      currencies.join(),
    );
    for (const code of ['MUR', 'USD', 'EUR']) assert.ok(currencies.includes(code), code);
    assert.ok(currencies.filter((code) => code === 'MUR').length > rowsPerCountry / 2);
    const seychelles = rowsOf(formatOf('SC')).map((bban) => at(bban, 25, 27));
    assert.ok(
      seychelles.every((code) => code === 'SCR' || code === 'USD'),
      seychelles.join(),
    );
  });

  it('BR: account type C or P, holder 1 or 2, both of each occurring', () => {
    const rows = rowsOf(formatOf('BR'));
    const types = new Set(rows.map((bban) => at(bban, 24, 24)));
    const holders = new Set(rows.map((bban) => at(bban, 25, 25)));
    assert.deepEqual([...types].sort(), ['C', 'P']);
    assert.deepEqual([...holders].sort(), ['1', '2']);
  });

  // The first two digits allocated to each clearing bank (Wikipedia, "Sort code", list of sort codes of the UK).
  const allocated: Record<string, readonly string[]> = {
    BARC: ['20'],
    BUKB: ['20'],
    HBUK: ['40'],
    MIDL: ['40'],
    LOYD: ['30'],
    NWBK: ['60'],
    RBOS: ['83', '16'],
    ABBY: ['09'],
    HLFX: ['11'],
    NAIA: ['07'],
    CPBK: ['08'],
    COUT: ['18'],
    CLYD: ['82'],
    TSBS: ['77', '87'],
    DABA: ['95'],
  };
  const allAllocated = new Set(Object.values(allocated).flat());

  it("GB: a listed bank's sort codes start with its allocation; other banks never take a listed one", () => {
    const gb = formatOf('GB');
    for (const bank of [...Object.keys(allocated), 'MONZ', 'REVO', 'SRLG', 'CITI']) {
      const prefixes = new Set(rowsOf(gb, 100, bank).map((bban) => at(bban, 5, 6)));
      const expected = allocated[bank];
      if (expected === undefined) {
        assert.ok(
          [...prefixes].every((prefix) => !allAllocated.has(prefix)),
          `${bank}: ${[...prefixes].join()}`,
        );
      } else {
        assert.deepEqual([...prefixes].sort(), [...expected].sort(), bank);
      }
    }
  });

  it("GB: a caller's sort code is kept as given", () => {
    const gb = formatOf('GB');
    const generated = generateIban(
      gb,
      rowRng(requestKeyOf('conventions-test', 'gb-given'), 0),
      {
        bankCode: 'BARC',
        branchCode: '601613',
      },
      context,
    );
    assert.equal(generated.branchCode, '601613');
  });
});

describe('BBAN conventions: the README', () => {
  it('shows the rendered table of every country', () => {
    const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
    assert.ok(
      readme.includes(conventionsMarkdown()),
      'README.md holds conventionsMarkdown() verbatim',
    );
  });
});
