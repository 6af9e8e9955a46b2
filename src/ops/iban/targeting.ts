import { Type, type Static } from '@sinclair/typebox';
import { isPlanAtLeast, type PlanId } from '../../domain/plans/plans.js';
import { AppError } from '../../errors.js';
import { limits } from '../../limits.js';
import type { BankDirectory, BankFilter, BankInfo } from '../../registry/bank-directory.js';
import { generationCandidates } from '../../registry/generation-banks.js';
import type { CallerView } from '../framework/op.js';

const targetText = (description: string) =>
  Type.String({ minLength: 1, maxLength: limits.targetingCharsMax, description });

export const targetingSchema = Type.Object(
  {
    city: Type.Optional(
      targetText(
        'Bank city (any paid plan): accents optional, umlauts may be spelled out (Muenchen), English names of the GeoNames gazetteer understood (Munich)',
      ),
    ),
    bank: Type.Optional(
      targetText(
        'Bank name, matched word by word (exact, then all words, then all but generic words such as "Bank", then word prefixes; the best tier only), or a national bank code (Pro or higher)',
      ),
    ),
    bic: Type.Optional(targetText('Exact BIC8 or BIC11 (Business or higher)')),
  },
  {
    additionalProperties: false,
    description: 'Generate IBANs of real banks that match; no match is an explicit error',
  },
);
export type Targeting = Static<typeof targetingSchema>;

/** Spec: top-level compatibility aliases for targeting keys. */
export const targetingAliasSchemas = {
  custom_city: Type.Optional(targetText('Alias of targeting.city')),
  custom_bank: Type.Optional(targetText('Alias of targeting.bank')),
  custom_bic: Type.Optional(targetText('Alias of targeting.bic')),
  bank_name: Type.Optional(targetText('Alias of targeting.bank')),
  bic: Type.Optional(targetText('Alias of targeting.bic')),
  swift_code: Type.Optional(targetText('Alias of targeting.bic')),
};

type AliasInput = { readonly [K in keyof typeof targetingAliasSchemas]?: string | undefined } & {
  readonly targeting?: Targeting | undefined;
};

function merge(key: keyof Targeting, values: readonly (string | undefined)[]): string | undefined {
  const given = [...new Set(values.filter((value): value is string => value !== undefined))];
  if (given.length > 1) {
    throw new AppError(
      'invalid_argument',
      `targeting.${key} and its aliases disagree: ${given.map((v) => JSON.stringify(v)).join(' vs ')}`,
    );
  }
  return given[0];
}

/** targeting plus its aliases, folded into one object (undefined when nothing targets). */
export function targetingOf(input: AliasInput): Targeting | undefined {
  const city = merge('city', [input.targeting?.city, input.custom_city]);
  const bank = merge('bank', [input.targeting?.bank, input.custom_bank, input.bank_name]);
  const bic = merge('bic', [input.targeting?.bic, input.custom_bic, input.bic, input.swift_code]);
  if (city === undefined && bank === undefined && bic === undefined) return undefined;
  return {
    ...(city === undefined ? {} : { city }),
    ...(bank === undefined ? {} : { bank }),
    ...(bic === undefined ? {} : { bic }),
  };
}

/** Endpoint rule 1: city needs any paid plan, bank Pro, bic Business; 402 advanced_targeting_required. */
export function gateTargeting(targeting: Targeting | undefined, caller: CallerView): void {
  if (targeting === undefined) return;
  const needs: [boolean, PlanId, string][] = [
    [targeting.bic !== undefined, 'business', 'BIC targeting'],
    [targeting.bank !== undefined, 'pro', 'bank targeting'],
    [targeting.city !== undefined, 'pass24h', 'city targeting'],
  ];
  for (const [used, minimum, what] of needs) {
    if (used && (caller.plan === null || !isPlanAtLeast(caller.plan, minimum))) {
      throw new AppError(
        'advanced_targeting_required',
        `${what} needs the ${minimum === 'pass24h' ? 'any paid' : minimum} plan or higher`,
        {
          required_plan: minimum,
          pricing_url: '/pricing',
        },
      );
    }
  }
}

export interface TargetMatch {
  readonly scope: 'bic' | 'bank' | 'city';
  readonly matchLevel: 'bic11' | 'bic8' | 'bank_code' | 'name' | 'city';
  readonly banks: readonly BankInfo[];
}

function filterOf(targeting: Targeting): BankFilter {
  return {
    ...(targeting.bic === undefined ? {} : { bic: targeting.bic.toUpperCase() }),
    ...(targeting.bank === undefined ? {} : { name: targeting.bank }),
    ...(targeting.city === undefined ? {} : { city: targeting.city }),
  };
}

function levelOf(
  targeting: Targeting,
  countryCode: string,
  directory: BankDirectory,
): TargetMatch['matchLevel'] {
  if (targeting.bic !== undefined) return targeting.bic.length === 11 ? 'bic11' : 'bic8';
  if (targeting.bank !== undefined)
    return directory.bankOf(countryCode, targeting.bank) ? 'bank_code' : 'name';
  return 'city';
}

/** Real banks matching the targeting; an empty match is an explicit no-match, never a substitute (spec rule 3). */
export function matchTarget(
  targeting: Targeting,
  countryCode: string,
  directory: BankDirectory,
): TargetMatch {
  const scope =
    targeting.bic !== undefined ? 'bic' : targeting.bank !== undefined ? 'bank' : 'city';
  const byCode =
    targeting.bank === undefined ? undefined : directory.bankOf(countryCode, targeting.bank);
  const banks =
    byCode !== undefined && targeting.bic === undefined && targeting.city === undefined
      ? [byCode]
      : directory.banksMatching(countryCode, filterOf(targeting), limits.targetCandidatesMax);
  if (banks.length === 0) {
    throw new AppError(
      'target_no_match',
      `No bank in the registry for ${countryCode} matches ${JSON.stringify(targeting)}; nothing was substituted`,
      {
        match_status: 'no_match',
      },
    );
  }
  // Among the matches, those whose national check the engine can complete (and with a city where known), as for
  // untargeted rows; if none qualifies, the matches themselves (their rows may say not_checked).
  const usable = generationCandidates(countryCode, banks);
  return {
    scope,
    matchLevel: levelOf(targeting, countryCode, directory),
    banks: usable.length > 0 ? usable : banks,
  };
}
