// Holders against the data they come from: faker's own locale lists (read here directly), the legal-form table,
// an independent Levenshtein, and the Polish feminine surname rule checked on the drawn names.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allLocales } from '@faker-js/faker';
import { requestKeyOf, rowRng } from '../rng.js';
import { fullNameOf } from './base-names.js';
import {
  drawEntity,
  drawPerson,
  holderCountries,
  sharedWordHolder,
  unrelatedHolder,
  wordsOf,
} from './holders.js';
import { legalFormsOf } from './legal-forms.js';
import { tradeWordsByLanguage } from './trade-words.js';

function levenshtein(a: string, b: string): number {
  const rows = [...a].length;
  const cols = [...b].length;
  const x = [...a];
  const y = [...b];
  const table = Array.from({ length: rows + 1 }, (_, i) =>
    Array.from({ length: cols + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= rows; i++)
    for (let j = 1; j <= cols; j++)
      (table[i] as number[])[j] = Math.min(
        (table[i - 1] as number[])[j]! + 1,
        (table[i] as number[])[j - 1]! + 1,
        (table[i - 1] as number[])[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1),
      );
  return (table[rows] as number[])[cols] as number;
}

const localeOf: Record<string, keyof typeof allLocales> = {
  AT: 'de_AT',
  BE: 'fr',
  CZ: 'cs_CZ',
  DE: 'de',
  DK: 'da',
  ES: 'es',
  FI: 'fi',
  FR: 'fr',
  GB: 'en',
  HR: 'hr',
  HU: 'hu',
  IE: 'en',
  IT: 'it',
  LV: 'lv',
  NL: 'nl',
  NO: 'nb_NO',
  PL: 'pl',
  PT: 'pt_PT',
  RO: 'ro',
  SE: 'sv',
  SK: 'sk',
};

const rng = (index: number) => rowRng(requestKeyOf('holders', 'test'), index);

describe('VoP holders', () => {
  it('draws 21 Latin-script SEPA countries, each with its faker locale and legal forms', () => {
    assert.deepEqual([...holderCountries], Object.keys(localeOf).sort());
    for (const country of holderCountries) assert.ok(legalFormsOf(country).length > 0, country);
  });

  it("takes given and family names from the country's faker lists; Polish women carry the feminine form", () => {
    for (let index = 0; index < 2_000; index++) {
      const country = holderCountries[index % holderCountries.length] as string;
      const person = drawPerson(rng(index), country);
      const names = allLocales[localeOf[country] as keyof typeof allLocales].person;
      const given = [...(names?.first_name?.female ?? []), ...(names?.first_name?.male ?? [])];
      assert.ok(given.includes(person.given), `${country} ${person.given}`);
      const female = names?.first_name?.female?.includes(person.given) === true;
      const families = [
        ...(names?.last_name?.generic ?? []),
        ...(names?.last_name?.female ?? []),
        ...(names?.last_name?.male ?? []),
      ];
      if (country === 'PL' && female) {
        assert.doesNotMatch(person.family, /(sk|ck|dzk)i$/u, `${person.given} ${person.family}`);
        assert.ok(
          families.includes(person.family) || families.includes(person.family.replace(/a$/u, 'i')),
          person.family,
        );
      } else assert.ok(families.includes(person.family), `${country} ${person.family}`);
    }
  });

  it('builds entities from a family name, a trade word of the language and a legal form of the country', () => {
    for (let index = 0; index < 1_000; index++) {
      const country = holderCountries[index % holderCountries.length] as string;
      const entity = drawEntity(rng(index), country);
      assert.ok(legalFormsOf(country).includes(entity.form), fullNameOf(entity));
      const words = entity.core.split(' ');
      const trades = Object.values(tradeWordsByLanguage).flatMap((list) => list.words);
      assert.ok(
        trades.includes(words[0] as string) || trades.includes(words.at(-1) as string),
        entity.core,
      );
    }
  });

  it('keeps the trade words of one language at edit distance 3 or more from each other', () => {
    for (const [language, { words }] of Object.entries(tradeWordsByLanguage))
      for (const a of words)
        for (const b of words)
          if (a !== b)
            assert.ok(levenshtein(a.toLowerCase(), b.toLowerCase()) >= 3, `${language}: ${a}/${b}`);
  });

  it('draws the easy other holder with no shared word, the hard one sharing a word but not a typo of it', () => {
    for (let index = 0; index < 1_000; index++) {
      const country = holderCountries[index % holderCountries.length] as string;
      const stream = rng(index);
      const base = index % 2 === 0 ? drawPerson(stream, country) : drawEntity(stream, country);
      const easy = unrelatedHolder(base, stream);
      const hard = sharedWordHolder(base, stream);
      for (const other of [easy, hard]) {
        assert.equal(other.country, base.country);
        assert.equal(other.kind, base.kind);
        assert.notEqual(fullNameOf(other), fullNameOf(base));
      }
      const words = wordsOf(base);
      assert.ok(
        [...wordsOf(easy)].every((word) => !words.has(word)),
        fullNameOf(easy),
      );
      assert.ok(
        [...wordsOf(hard)].some((word) => words.has(word)),
        fullNameOf(hard),
      );
      if (base.kind === 'person' && hard.kind === 'person') {
        assert.equal(hard.family, base.family);
        assert.notEqual(hard.given[0]?.toLowerCase(), base.given[0]?.toLowerCase());
        assert.ok(levenshtein(hard.given.toLowerCase(), base.given.toLowerCase()) >= 3);
      }
      if (base.kind === 'entity' && hard.kind === 'entity') assert.equal(hard.form, base.form);
    }
  });
});
