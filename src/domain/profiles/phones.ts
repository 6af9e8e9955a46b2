import { getCountryCallingCode, getExampleNumber, isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
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
  const valid = (ending: number) => parsePhoneNumberFromString(prefix + String(ending).padStart(redrawnDigits, '0'))?.isValid() === true;
  const sampleStep = 101;
  let allSampled = true;
  for (let ending = 0; ending < endingCount && allSampled; ending += sampleStep) allSampled = valid(ending);
  const endings = allSampled ? null : Array.from({ length: endingCount }, (_, ending) => ending).filter(valid);
  return { formatted, slots: digitPositions(formatted).slice(-redrawnDigits), endings };
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
  if (countryCode === 'GB') return { number: `+44 7700 900${rngDigits(rng, 3)}`, range: 'fictional_reserved' };
  if (countryCode === 'US') return { number: `+1 ${rngPick(rng, nanpAreaCodes)} 555 01${rngDigits(rng, 2)}`, range: 'fictional_reserved' };
  const template = templateOf(countryCode);
  if (template === null) return null;
  if (template.endings?.length === 0) return { number: template.formatted, range: 'synthetic_format_valid' };
  const drawn = template.endings === null ? rngBelow(rng, endingCount) : rngPick(rng, template.endings);
  const ending = String(drawn).padStart(redrawnDigits, '0');
  const chars = [...template.formatted];
  template.slots.forEach((position, index) => {
    chars[position] = ending.charAt(index);
  });
  return { number: chars.join(''), range: 'synthetic_format_valid' };
}

/** A number drawn from the country's checked template (same text but the redrawn digits, an accepted ending). */
function fitsTemplate(phone: string, countryCode: string): boolean {
  const template = templateOf(countryCode);
  if (template === null || phone.length !== template.formatted.length) return false;
  const first = template.slots[0] ?? phone.length;
  if (phone.slice(0, first) !== template.formatted.slice(0, first)) return false;
  const ending = template.slots.map((position) => phone.charAt(position)).join('');
  if (!/^\d+$/.test(ending) || phone.slice((template.slots.at(-1) ?? phone.length) + 1) !== template.formatted.slice((template.slots.at(-1) ?? phone.length) + 1)) return false;
  for (let i = first; i < phone.length; i++) {
    if (!template.slots.includes(i) && phone.charAt(i) !== template.formatted.charAt(i)) return false;
  }
  return template.endings === null || template.endings.includes(Number(ending));
}

/** Does this phone belong to the country: its calling code, and valid in the plan or in a reserved fiction range. */
export function phoneFitsCountry(phone: string, countryCode: string): boolean {
  const e164 = phone.replace(/[\s()-]/g, '');
  if (!isSupportedCountry(countryCode)) return false;
  if (!e164.startsWith(`+${getCountryCallingCode(countryCode as CountryCode)}`)) return false;
  if (isFictionalReserved(e164)) return true;
  if (fitsTemplate(phone, countryCode)) return true;
  return parsePhoneNumberFromString(e164)?.isValid() === true;
}

