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
import { placeIdsNamed, placeIdsOfKeys } from '../domain/profiles/place-names.js';

/** "GENEVE 2" -> "GENEVE": the number of a post office after the city name. */
const POST_OFFICE_NUMBER = /(?: \d+)+$/;

/** A registry city's fold keys (see cityKeys), with and without a trailing post-office number. */
export function registryCityKeys(keys: readonly string[]): string[] {
  const bare = keys.map((key) => key.replace(POST_OFFICE_NUMBER, '')).filter((key) => key !== '');
  return [...new Set([...keys, ...bare])];
}

/** The GeoNames ids of the country's places the query names (empty when it names none). */
export function queryPlaces(countryCode: string, query: string): ReadonlySet<number> {
  return new Set(placeIdsNamed(countryCode, query));
}

/** The GeoNames ids of the places a registry city (its keys, see registryCityKeys) is one of. */
export function registryCityPlaces(countryCode: string, keys: readonly string[]): number[] {
  return keys.length === 0 ? [] : placeIdsOfKeys(countryCode, keys);
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
  const places = queryPlaces(countryCode, query);
  if (places.size === 0) return [];
  return registryCities.filter((city) =>
    registryCityPlaces(countryCode, registryCityKeys(cityKeys(city))).some((id) => places.has(id)),
  );
}
