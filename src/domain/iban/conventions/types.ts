/**
 * National BBAN conventions: what real accounts of a country look like inside the registry's
 * character classes (digits where accounts are numeric, a reserved digit, a currency field, an
 * account-type letter, a sort code in the bank's range). Each rule names its public source.
 */

/** A public document: who issued it, what it is called, where in it, and where to read it. */
export interface ConventionSource {
  readonly issuer: string;
  readonly title: string;
  readonly section: string;
  readonly url: string;
}

/**
 * Why a rule holds:
 * - `national`: a national issuer (central bank, banking association, regulator) states it;
 * - `registry-example`: the SWIFT IBAN Registry's own published example for the country shows it (e.g. digits
 *   in a `c` field); no national document stating it was found;
 * - `decision`: ibanqa's generation choice inside what the national standard allows, said so in the table.
 */
export type ConventionBasis = 'national' | 'registry-example' | 'decision';

/**
 * How the field is drawn:
 * - `alphabet`: every position from these characters (drawn in the BBAN's left-to-right pass, one draw per
 *   position as for every other position, so the rest of the BBAN is unchanged);
 * - `one-of`: the whole field is one of `values`, drawn after the pass with the given integer weights;
 * - `bank-prefix`: the field's first characters are one of the bank's published prefixes (by the BBAN's bank
 *   code); a bank without published prefixes gets a prefix that no listed bank holds.
 */
export type ConventionDraw =
  | { readonly kind: 'alphabet'; readonly alphabet: string }
  | {
      readonly kind: 'one-of';
      readonly values: readonly string[];
      readonly weights: readonly number[];
    }
  | {
      readonly kind: 'bank-prefix';
      readonly prefixLength: number;
      readonly prefixesByBank: ReadonlyMap<string, readonly string[]>;
    };

export interface ConventionRule {
  /** The field's name in the national scheme, e.g. "account number", "reserve digit". */
  readonly field: string;
  /** 1-based inclusive BBAN positions, as the registry prints them. */
  readonly from: number;
  readonly to: number;
  readonly draw: ConventionDraw;
  /** The rule in words, for the README table. */
  readonly rule: string;
  readonly basis: ConventionBasis;
  readonly sources: readonly ConventionSource[];
}

/** One country: its rules (possibly none) and what was looked for where there is none. */
export interface CountryConvention {
  readonly country: string;
  readonly rules: readonly ConventionRule[];
  /** Said in the table where a field keeps the registry's character class, and why. */
  readonly note: string | null;
}
