// Goal: people's spellings of a country resolve to the right IBAN format, and nothing else does.
// Method: the variants named in clarifications §1 plus registry spellings, each asserted.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { countryFormats } from './countries.js';
import { countryKey, resolveCountry } from './country-lookup.js';

const expectations: readonly (readonly [string, string])[] = [
  ['Germany', 'DE'],
  ['  germany ', 'DE'],
  ['GERMANY', 'DE'],
  ['de', 'DE'],
  ['DE', 'DE'],
  ['United Kingdom', 'GB'],
  ['UK', 'GB'],
  ['uk', 'GB'],
  ['Great Britain', 'GB'],
  ['GB', 'GB'],
  ['Czechia', 'CZ'],
  ['Czech Republic', 'CZ'],
  ['Türkiye', 'TR'],
  ['Turkey', 'TR'],
  ['Turkiye', 'TR'],
  ['TÜRKIYE', 'TR'],
  ['Netherlands', 'NL'],
  ['The Netherlands', 'NL'],
  ['Holland', 'NL'],
  ['Netherlands (The)', 'NL'],
  ['Russia', 'RU'],
  ['Russian Federation', 'RU'],
  ['Moldova', 'MD'],
  ['Republic of Moldova', 'MD'],
  ['Moldova, Republic of', 'MD'],
  ['North Macedonia', 'MK'],
  ['Macedonia', 'MK'],
  ['Kosovo', 'XK'],
  ['Vatican City', 'VA'],
  ['Holy See', 'VA'],
  ['Vatican City State', 'VA'],
  ['São Tomé and Príncipe', 'ST'],
  ['Sao Tome and Principe', 'ST'],
  ['Saint Lucia', 'LC'],
  ['St. Lucia', 'LC'],
  ['St Lucia', 'LC'],
  ['United Arab Emirates', 'AE'],
  ['UAE', 'AE'],
  ['Palestine, State of', 'PS'],
  ['Virgin Islands (British)', 'VG'],
  ['British Virgin Islands', 'VG'],
  ['Timor-Leste', 'TL'],
  ['timor leste', 'TL'],
  ['Faroe Islands', 'FO'],
  ['Bosnia and Herzegovina', 'BA'],
];

describe('resolveCountry', () => {
  it('resolves names, variants and alpha-2 codes', () => {
    for (const [input, code] of expectations)
      assert.equal(resolveCountry(input)?.code, code, input);
  });

  it('resolves every format by its own name, aliases and code', () => {
    for (const format of countryFormats) {
      for (const name of [format.name, ...format.aliases, format.code])
        assert.equal(resolveCountry(name), format, name);
    }
  });

  it('answers undefined for countries without IBANs and for noise', () => {
    for (const input of [
      'United States',
      'US',
      'USA',
      'XX',
      '',
      '   ',
      'Germ',
      'Narnia',
      "Côte d'Ivoire",
      'Random',
    ]) {
      assert.equal(resolveCountry(input), undefined, input);
    }
  });
});

describe('countryKey', () => {
  it('ignores case, diacritics, punctuation and spacing', () => {
    assert.equal(countryKey('  São  Tomé & Príncipe '), 'sao tome principe');
    assert.equal(countryKey('Moldova, Republic of'), 'moldova republic of');
    assert.equal(countryKey('Côte d’Ivoire'), 'cote d ivoire');
  });
});
