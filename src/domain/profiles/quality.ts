import { validateIban } from '../iban/validate.js';
import type { NationalContext } from '../iban/national/types.js';
import { foldText, type BankInfo } from '../../registry/bank-directory.js';
import { ageOn } from './dates.js';
import { isReservedEmail } from './email.js';
import type { ProfileRecord } from './engine.js';
import { ssnSchemes, taxIdSchemes } from './national-ids/index.js';
import { phoneFitsCountry } from './phones.js';
import { postalFormats } from './postal-codes.js';

/**
 * The profile quality score: a pure function of one profile, the registry's record for its IBAN's bank code,
 * and the reference day. It starts at 100 and subtracts a named penalty per finding, in four groups, each
 * capped so no one group can sink a profile alone:
 *
 * - completeness (cap 35): 3 per missing field among names, gender, birth date, email, phone, street, city,
 *   country, occupation, card, IBAN (unless the profile has none by design), postal code where the country has
 *   a postal format, national identifier where the country has a published scheme;
 * - country consistency (cap 35): phone outside the country's plan 8, postal code not in the country's format 6,
 *   IBAN of another country 10, IBAN failing mod 97 or its national check 10, BIC of another country 6,
 *   national identifier failing its check digits or disagreeing with birth date/sex/name 8, names and street
 *   from a fallback language locale (faker has none for the country) 10, address country not the profile's 4,
 *   age not matching the birth date 5;
 * - bank metadata (cap 20): IBAN bank unknown to the registry 10, BIC differing from the registry's 10, bank name
 *   differing from the registry's 6, synthetic bank code (the registry has no banks for the country) 5;
 * - weak markers and placeholders (cap 30): 5 per field holding N/A-style placeholders, lorem ipsum, test/asdf/
 *   qwerty/dummy words, a test domain outside the email field, a run of six identical digits (outside the phone,
 *   whose plan prefixes may hold one), a phone or postal code of one repeated digit (00000). Emails on RFC 2606 reserved domains are expected in synthetic data: not weak.
 *
 * Tiers: 85-100 good (95+ labelled excellent), 70-84 review (usable, review before use), below 70 needs_review.
 */
export type QualityGroup = 'completeness' | 'country_consistency' | 'bank_metadata' | 'weak_markers';

export interface QualityReason {
  readonly code: string;
  readonly group: QualityGroup;
  readonly field: string;
  readonly penalty: number;
  readonly message: string;
}

export interface QualityScore {
  readonly score: number;
  readonly tier: 'good' | 'review' | 'needs_review';
  readonly label: 'excellent' | 'good' | 'usable, review before use' | 'needs review';
  readonly reasons: readonly QualityReason[];
}

const groupCaps: Readonly<Record<QualityGroup, number>> = { completeness: 35, country_consistency: 35, bank_metadata: 20, weak_markers: 30 };
export const qualityBands = { good: 85, excellent: 95, review: 70 } as const;

/** What the score needs besides the profile: the registry's bank for the IBAN's bank code (undefined: unknown). */
export interface QualityContext {
  readonly registryBank: BankInfo | undefined;
  readonly national: NationalContext;
  readonly today: Date;
}

type Finding = Omit<QualityReason, 'group'>;

function completeness(p: ProfileRecord): Finding[] {
  const out: Finding[] = [];
  const missing = (field: string, value: unknown) => {
    if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')) {
      out.push({ code: 'missing_field', field, penalty: 3, message: `${field} is missing` });
    }
  };
  missing('first_name', p.first_name);
  missing('last_name', p.last_name);
  missing('gender', p.gender);
  missing('date_of_birth', p.date_of_birth);
  missing('email', p.email);
  missing('phone', p.phone);
  missing('address.street', p.address.street);
  missing('address.city', p.address.city);
  missing('address.country', p.address.country);
  missing('occupation', p.occupation);
  missing('credit_card', p.credit_card?.number);
  if (p.country_code !== 'US') missing('iban', p.iban);
  if (postalFormats[p.country_code] !== undefined) missing('address.postal_code', p.address.postal_code);
  if (taxIdSchemes[p.country_code] !== undefined) missing('tax_id', p.tax_id);
  if (ssnSchemes[p.country_code] !== undefined) missing('ssn', p.ssn);
  return out;
}

function consistency(p: ProfileRecord, context: QualityContext): Finding[] {
  const out: Finding[] = [];
  const add = (code: string, field: string, penalty: number, message: string) => out.push({ code, field, penalty, message });
  if (p.phone !== null && !phoneFitsCountry(p.phone, p.country_code)) add('phone_country_mismatch', 'phone', 8, `phone is not a number of ${p.country_code}'s plan`);
  const postal = postalFormats[p.country_code];
  if (postal !== undefined && p.address.postal_code !== null && !postal.pattern.test(p.address.postal_code)) {
    add('postal_code_format', 'address.postal_code', 6, `postal code is not in ${p.country_code}'s format`);
  }
  if (p.iban !== null) {
    const verdict = validateIban(p.iban, context.national);
    if (verdict.countryCode !== p.country_code) add('iban_country_mismatch', 'iban', 10, `IBAN country ${verdict.countryCode ?? '?'} is not ${p.country_code}`);
    if (!verdict.valid || verdict.nationalCheck === 'failed') add('iban_invalid', 'iban', 10, `IBAN fails its checks: ${verdict.error ?? 'national check failed'}`);
  }
  const bic = p.bank?.swift_bic ?? null;
  if (bic !== null && bic.slice(4, 6) !== p.country_code) add('bic_country_mismatch', 'bank.swift_bic', 6, `BIC country ${bic.slice(4, 6)} is not ${p.country_code}`);
  const scheme = taxIdSchemes[p.country_code] ?? ssnSchemes[p.country_code];
  const id = p.tax_id ?? p.ssn;
  if (scheme !== undefined && id !== null) {
    const subject = { firstName: p.first_name, lastName: p.last_name, sex: p.gender, dateOfBirth: p.date_of_birth };
    if (!scheme.validate(id) || !scheme.agrees(id, subject)) add('national_id_invalid', p.tax_id !== null ? 'tax_id' : 'ssn', 8, `${scheme.name} fails its check or disagrees with the person`);
  }
  if (p.locale_fallback) add('locale_fallback', 'locale', 10, `names and street from the ${p.locale} locale: faker has no locale for ${p.country_code}`);
  if (p.address.country !== p.country && foldText(p.address.country) !== foldText(p.country)) add('address_country_mismatch', 'address.country', 4, 'address country differs from the profile country');
  if (/^\d{4}-\d{2}-\d{2}$/.test(p.date_of_birth) && ageOn(p.date_of_birth, context.today) !== p.age) add('age_mismatch', 'age', 5, 'age does not match the birth date');
  return out;
}

function bankMetadata(p: ProfileRecord, context: QualityContext): Finding[] {
  if (p.bank === null) return [];
  const out: Finding[] = [];
  const registry = context.registryBank;
  if (p.bank.bank_match === 'synthetic') return [{ code: 'bank_synthetic', field: 'bank', penalty: 5, message: 'synthetic bank code: the registry has no banks for this country' }];
  if (registry === undefined) return [{ code: 'bank_unknown', field: 'bank', penalty: 10, message: "the registry does not know the IBAN's bank code" }];
  if (p.bank.swift_bic !== registry.bic) out.push({ code: 'bic_mismatch', field: 'bank.swift_bic', penalty: 10, message: `BIC differs from the registry's (${registry.bic ?? 'none'})` });
  if (p.bank.bank_name !== registry.name && foldText(p.bank.bank_name ?? '') !== foldText(registry.name ?? '')) out.push({ code: 'bank_name_mismatch', field: 'bank.bank_name', penalty: 6, message: "bank name differs from the registry's" });
  return out;
}

const placeholder = /^(n\/?a|none|null|nil|unknown|tbd|tba|xxx+|-+|\?+|\.+|0+)$/i;
// Whole words in any script: \b is ASCII-only and would find "bar" in the Turkish "Barış".
const weakWord = /(?<![\p{L}\p{N}])(lorem|ipsum|test|testing|asdf|qwerty|dummy|foo|bar|baz|sample|placeholder|fake)(?![\p{L}\p{N}])/iu;
const testDomain = /\b[\w-]+\.(test|invalid|localhost|example)\b|\b(example|test)\.(com|net|org)\b|\bmailinator\.com\b/i;

function weakMarkers(p: ProfileRecord): Finding[] {
  const fields: [string, string | null][] = [
    ['first_name', p.first_name], ['last_name', p.last_name], ['phone', p.phone], ['address.street', p.address.street],
    ['address.postal_code', p.address.postal_code], ['address.city', p.address.city], ['occupation', p.occupation],
    ['tax_id', p.tax_id], ['bank.bank_name', p.bank?.bank_name ?? null], ['email', p.email],
  ];
  const out: Finding[] = [];
  for (const [field, value] of fields) {
    if (value === null || value === '') continue;
    const isEmail = field === 'email';
    const text = isEmail ? value.slice(0, value.lastIndexOf('@')) : value;
    let why: string | undefined;
    if (placeholder.test(text.trim())) why = 'placeholder value';
    else if (weakWord.test(text)) why = 'test or filler word';
    else if (!isEmail && testDomain.test(text)) why = 'test domain outside the email field';
    else if (field !== 'phone' && /(\d)\1{5}/.test(text.replace(/\D/g, ''))) why = 'run of six identical digits';
    else if (field === 'phone' && /^\+\d{1,3} ?(\d)(?: ?\1){5,}$/.test(text)) why = 'phone of one repeated digit';
    else if (field === 'address.postal_code' && /^(\d)\1{3,}$/.test(text)) why = 'postal code of one repeated digit';
    if (isEmail && !isReservedEmail(value) && why === undefined && testDomain.test(value)) why = 'test domain that is not RFC 2606 reserved';
    if (why !== undefined) out.push({ code: 'weak_marker', field, penalty: 5, message: `${field}: ${why}` });
  }
  return out;
}

function capped(group: QualityGroup, findings: readonly Finding[]): { reasons: QualityReason[]; penalty: number } {
  const reasons = findings.map((finding) => ({ ...finding, group }));
  const total = reasons.reduce((sum, reason) => sum + reason.penalty, 0);
  return { reasons, penalty: Math.min(total, groupCaps[group]) };
}

export function scoreProfile(profile: ProfileRecord, context: QualityContext): QualityScore {
  const groups = [
    capped('completeness', completeness(profile)),
    capped('country_consistency', consistency(profile, context)),
    capped('bank_metadata', bankMetadata(profile, context)),
    capped('weak_markers', weakMarkers(profile)),
  ];
  const score = Math.max(0, 100 - groups.reduce((sum, group) => sum + group.penalty, 0));
  const reasons = groups.flatMap((group) => group.reasons);
  if (score >= qualityBands.good) return { score, tier: 'good', label: score >= qualityBands.excellent ? 'excellent' : 'good', reasons };
  if (score >= qualityBands.review) return { score, tier: 'review', label: 'usable, review before use', reasons };
  return { score, tier: 'needs_review', label: 'needs review', reasons };
}
