// Expected folds come from a second transliteration: Unicode NFKD with combining marks removed (for the plain
// fold) and the DIN 5007-2 replacements written out by hand for three cities (for the umlaut fold).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cityKeys, cityQuery, matchCity } from './city-match.js';

const nfkd = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();

describe('city matcher', () => {
  it('folds a name plainly and with umlauts spelled out', () => {
    for (const city of ['München', 'Zürich', 'Genève', 'Köln'])
      assert.equal(cityKeys(city)[0], nfkd(city));
    assert.deepEqual(cityKeys('München'), ['MUNCHEN', 'MUENCHEN']);
    assert.deepEqual(cityKeys('Düsseldorf'), ['DUSSELDORF', 'DUESSELDORF']);
    assert.deepEqual(cityKeys('Gießen'), ['GIESSEN']);
    assert.deepEqual(cityKeys('Wien'), ['WIEN']);
  });

  it('"München", "Munchen", "Muenchen" are one city; "Frankfurt" finds both Frankfurts by word', () => {
    for (const query of ['München', 'Munchen', 'Muenchen', 'MÜNCHEN'])
      assert.equal(matchCity(cityQuery(query), 'München'), 'exact', query);
    assert.equal(matchCity(cityQuery('Frankfurt'), 'Frankfurt am Main'), 'all_words');
    assert.equal(matchCity(cityQuery('Frankfurt'), 'Frankfurt (Oder)'), 'all_words');
    assert.equal(matchCity(cityQuery('Munich'), 'München'), undefined);
  });
});
