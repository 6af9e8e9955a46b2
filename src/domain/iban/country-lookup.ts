import { assert } from '../../assert.js';
import { countryFormatOf, countryFormats, type CountryFormat } from './countries.js';

/**
 * Country input as people type it: the English short name, a registry or common variant
 * ("UK", "Czech Republic", "Turkey", "Holland", "Vatican City"...), or the ISO 3166-1 alpha-2
 * code. Case, diacritics, punctuation and extra spaces do not matter ("turkiye" = "Türkiye").
 */

const codeLength = 2;
const combiningMarks = /[\u0300-\u036f]/g;
const nonAlphanumericRuns = /[^a-z0-9]+/g;
const leadingArticle = 'the ';

/** Lower case, no diacritics, every run of other characters one space. */
export function countryKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(combiningMarks, '')
    .toLowerCase()
    .replace(nonAlphanumericRuns, ' ')
    .trim();
}

function buildNameIndex(): ReadonlyMap<string, CountryFormat> {
  const index = new Map<string, CountryFormat>();
  for (const format of countryFormats) {
    for (const name of [format.name, ...format.aliases]) {
      const key = countryKey(name);
      const previous = index.get(key);
      assert(
        previous === undefined || previous === format,
        `country name "${name}" is unambiguous`,
      );
      index.set(key, format);
    }
  }
  return index;
}

const formatsByName = buildNameIndex();

export function resolveCountry(input: string): CountryFormat | undefined {
  const trimmed = input.trim();
  if (trimmed.length === codeLength) {
    const byCode = countryFormatOf(trimmed.toUpperCase());
    if (byCode !== undefined) return byCode;
  }
  const key = countryKey(trimmed);
  const byName = formatsByName.get(key);
  if (byName !== undefined || !key.startsWith(leadingArticle)) return byName;
  return formatsByName.get(key.slice(leadingArticle.length));
}
