/**
 * City names the registry does not spell the way the query does ("Cologne" for Köln, "Geneva" for Genève,
 * "Wien" for Vienna), joined through the GeoNames gazetteer (src/domain/profiles/place-names.ts: every
 * Latin-script name GeoNames lists for a place of 1,000 inhabitants or more). The query names places of the
 * country (any of their names, folded as city-match.ts folds); a registry city is one of those places when it
 * is one of the place's names, also once a trailing post-office number is dropped ("Genève 2", "Bern 22": the
 * SIX file writes the post office's number after the city). A query that names no place of the country joins
 * nothing; the caller keeps what the registry's own spellings give. Reads the gazetteer on first use; not pure.
 */
import { cityKeys } from '../domain/banks/city-match.js';
import { placeIdsNamed, placeNameIndex } from '../domain/profiles/place-names.js';

/** "GENEVE 2" -> "GENEVE": the number of a post office after the city name. */
const POST_OFFICE_NUMBER = /(?: \d+)+$/;

/** A registry city's fold keys (see cityKeys), with and without a trailing post-office number. */
export function registryCityKeys(keys: readonly string[]): string[] {
  const bare = keys.map((key) => key.replace(POST_OFFICE_NUMBER, '')).filter((key) => key !== '');
  return [...new Set([...keys, ...bare])];
}

/**
 * A test of registry cities (their keys, see registryCityKeys): is the city one of the places the query names?
 * Undefined when the query names no place of the country.
 */
export function queryPlacesTest(
  countryCode: string,
  query: string,
): ((keys: readonly string[]) => boolean) | undefined {
  const places = new Set(placeIdsNamed(countryCode, query));
  if (places.size === 0) return undefined;
  const index = placeNameIndex(countryCode);
  return (keys) => keys.some((key) => index.get(key)?.some((id) => places.has(id)) === true);
}

/**
 * The registry cities (from `registryCities`, distinct city names the registry holds for the country) that are
 * places the query names; empty when it names none.
 */
export function gazetteerCities(
  countryCode: string,
  query: string,
  registryCities: readonly string[],
): string[] {
  const isPlace = queryPlacesTest(countryCode, query);
  if (isPlace === undefined) return [];
  return registryCities.filter((city) => isPlace(registryCityKeys(cityKeys(city))));
}
