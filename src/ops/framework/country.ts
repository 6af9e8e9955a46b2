import { resolveCountry, type CountryFormat } from '../../domain/iban/index.js';
import { AppError } from '../../errors.js';

/** Resolves the request's country or answers 400 {"error":"Invalid country"} (clarifications §1). */
export function countryOrThrow(input: string): CountryFormat {
  const format = resolveCountry(input);
  if (format === undefined) {
    throw new AppError(
      'invalid_country',
      `Unknown or non-IBAN country ${JSON.stringify(input)}: use an English name or an ISO alpha-2 code of the SWIFT IBAN registry`,
    );
  }
  return format;
}
