import {
  getCountryCallingCode,
  getExampleNumber,
  isSupportedCountry,
  parsePhoneNumberFromString,
  type CountryCode,
} from 'libphonenumber-js/max';
import mobileExamples from 'libphonenumber-js/mobile/examples';
import { rngBelow, rngDigits, rngPick, type Rng } from '../rng.js';

/**
 * Phone numbers in the country's numbering plan. Where a regulator reserves numbers for fiction we use them:
 * - GB: Ofcom "Telephone numbers for drama purposes": mobile 07700 900000-900999;
 * - US/NANP: NANPA reserves 555-0100 to 555-0199 for fictitious use.
 * Everywhere else the number is synthetic and format-valid: libphonenumber's example mobile number for the
 * country with its last digits redrawn until libphonenumber (Google's metadata) accepts it as a valid mobile
 * number of that plan. It may coincide with a real subscriber: it is labelled `synthetic_format_valid`.
 */
export type PhoneRange = 'fictional_reserved' | 'synthetic_format_valid';

export interface SyntheticPhone {
  /** International format, e.g. "+49 151 23456789". */
  readonly number: string;
  readonly range: PhoneRange;
}

const redrawnDigits = 4;
const endingCount = 10 ** redrawnDigits;
const nanpAreaCodes = ['201', '202', '212', '312', '415', '617'] as const;

/** True for the reserved fiction ranges above (E.164 without formatting). */
export function isFictionalReserved(e164: string): boolean {
  return /^\+447700900\d{3}$/.test(e164) || /^\+1\d{3}55501\d{2}$/.test(e164);
}

/**
 * Per country, once: the example mobile number formatted internationally, and which of its 10,000 four-digit
 * endings libphonenumber accepts. A sample of 100 endings is checked first; when all pass (validity in these
 * plans depends on the leading digits) every ending is taken, otherwise all 10,000 are checked. A profile then
 * only substitutes digits: parsing and validating per profile would cost ~150 us.
 */
interface PhoneTemplate {
  readonly formatted: string;
  /** Positions in `formatted` of the redrawable digits (empty: the example only). */
  readonly slots: readonly number[];
  /** Endings (0..9999) that libphonenumber accepts; null: every ending. */
  readonly endings: readonly number[] | null;
  /** Per position of `formatted`: the index of its redrawable digit, -1 for a fixed character. */
  readonly slotOf: Int8Array;
  /** accepted[ending] is 1 for an ending in `endings` (all 1 when every ending is). */
  readonly accepted: Uint8Array;
}

const templates = new Map<string, PhoneTemplate | null>();

function digitPositions(formatted: string): number[] {
  const positions: number[] = [];
  for (let i = 0; i < formatted.length; i++) if (/\d/.test(formatted.charAt(i))) positions.push(i);
  return positions;
}

function buildTemplate(countryCode: string): PhoneTemplate | null {
  if (!isSupportedCountry(countryCode)) return null;
  const example = getExampleNumber(countryCode as CountryCode, mobileExamples);
  if (example === undefined) return null;
  const formatted = example.formatInternational();
  const national = example.nationalNumber as string;
  const prefix = `+${example.countryCallingCode as string}${national.slice(0, national.length - redrawnDigits)}`;
  const valid = (ending: number) =>
    parsePhoneNumberFromString(prefix + String(ending).padStart(redrawnDigits, '0'))?.isValid() ===
    true;
  const sampleStep = 101;
  let allSampled = true;
  for (let ending = 0; ending < endingCount && allSampled; ending += sampleStep)
    allSampled = valid(ending);
  const endings = allSampled
    ? null
    : Array.from({ length: endingCount }, (_, ending) => ending).filter(valid);
  const slots = digitPositions(formatted).slice(-redrawnDigits);
  const slotOf = new Int8Array(formatted.length).fill(-1);
  slots.forEach((position, index) => {
    slotOf[position] = index;
  });
  const accepted = new Uint8Array(endingCount).fill(endings === null ? 1 : 0);
  for (const ending of endings ?? []) accepted[ending] = 1;
  return { formatted, slots, endings, slotOf, accepted };
}

function templateOf(countryCode: string): PhoneTemplate | null {
  let template = templates.get(countryCode);
  if (template === undefined) {
    template = buildTemplate(countryCode);
    templates.set(countryCode, template);
  }
  return template;
}

export function syntheticPhone(countryCode: string, rng: Rng): SyntheticPhone | null {
  if (countryCode === 'GB')
    return { number: `+44 7700 900${rngDigits(rng, 3)}`, range: 'fictional_reserved' };
  if (countryCode === 'US')
    return {
      number: `+1 ${rngPick(rng, nanpAreaCodes)} 555 01${rngDigits(rng, 2)}`,
      range: 'fictional_reserved',
    };
  const template = templateOf(countryCode);
  if (template === null) return null;
  if (template.endings?.length === 0)
    return { number: template.formatted, range: 'synthetic_format_valid' };
  const drawn =
    template.endings === null ? rngBelow(rng, endingCount) : rngPick(rng, template.endings);
  const ending = String(drawn).padStart(redrawnDigits, '0');
  return { number: withEnding(template, ending), range: 'synthetic_format_valid' };
}

/** The template's text with the redrawn digits put in its slots (ascending positions). */
function withEnding(template: PhoneTemplate, ending: string): string {
  let number = '';
  let from = 0;
  for (let index = 0; index < template.slots.length; index++) {
    const position = template.slots[index] as number;
    number += template.formatted.slice(from, position) + ending.charAt(index);
    from = position + 1;
  }
  return number + template.formatted.slice(from);
}

/**
 * A number drawn from the country's checked template: every fixed character as in the template, digits in the
 * redrawn positions, and an accepted ending. One pass over the characters: the quality score runs it on every row.
 */
function fitsTemplate(phone: string, countryCode: string): boolean {
  const template = templateOf(countryCode);
  if (
    template === null ||
    template.slots.length === 0 ||
    phone.length !== template.formatted.length
  )
    return false;
  let ending = 0;
  for (let i = 0; i < phone.length; i++) {
    const code = phone.charCodeAt(i);
    if (template.slotOf[i] === -1) {
      if (code !== template.formatted.charCodeAt(i)) return false;
    } else {
      if (code < 48 || code > 57) return false;
      ending = ending * 10 + (code - 48);
    }
  }
  return template.accepted[ending] === 1;
}

/** "+<calling code>" of a country libphonenumber supports; null for one it does not. */
const callingPrefixes = new Map<string, string | null>();
function callingPrefixOf(countryCode: string): string | null {
  let prefix = callingPrefixes.get(countryCode);
  if (prefix === undefined) {
    prefix = isSupportedCountry(countryCode)
      ? `+${getCountryCallingCode(countryCode as CountryCode)}`
      : null;
    callingPrefixes.set(countryCode, prefix);
  }
  return prefix;
}

/** Does this phone belong to the country: its calling code, and valid in the plan or in a reserved fiction range. */
export function phoneFitsCountry(phone: string, countryCode: string): boolean {
  const e164 = phone.replace(/[\s()-]/g, '');
  const prefix = callingPrefixOf(countryCode);
  if (prefix === null) return false;
  if (!e164.startsWith(prefix)) return false;
  if (isFictionalReserved(e164)) return true;
  if (fitsTemplate(phone, countryCode)) return true;
  return parsePhoneNumberFromString(e164)?.isValid() === true;
}
