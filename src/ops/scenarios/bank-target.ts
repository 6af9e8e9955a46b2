import type { CountryFormat } from '../../domain/iban/index.js';
import type { TargetResolution } from '../../domain/scenarios/build.js';
import type { BankDirectory } from '../../registry/bank-directory.js';
import { artifactLimits } from '../../limits.js';

const bicPattern = /^[A-Z]{4}([A-Z]{2})[A-Z0-9]{2}([A-Z0-9]{3})?$/;

/** The country of a BIC-shaped bank_target (ISO 9362: letters 5-6), else undefined (a name). */
export function bicCountryOf(target: string | undefined): string | undefined {
  if (target === undefined) return undefined;
  return bicPattern.exec(target.trim().toUpperCase())?.[1];
}

/** bank_target against the registry: an exact BIC (or every office of a BIC8), else a name containing the text. */
export function resolveTarget(
  target: string | undefined,
  format: CountryFormat,
  bank: BankDirectory,
): TargetResolution {
  if (target === undefined) return { status: 'not_requested' };
  const query = target.trim();
  const isBic = bicCountryOf(query) !== undefined;
  const matches = bank.banksMatching(
    format.code,
    isBic ? { bic: query.toUpperCase() } : { name: query },
    artifactLimits.scenarioNameCandidatesMax,
  );
  const first = matches[0];
  if (first === undefined) return { status: 'no_match', query };
  return {
    status: 'matched',
    query,
    candidates: matches.length,
    bank: {
      bic: first.bic,
      name: first.name,
      city: first.city,
      country_code: first.countryCode,
      bank_code: first.bankCode,
      source_id: first.sourceId,
      payment_schemes: [...first.paymentSchemes],
    },
  };
}
