// Metadata from core with the max metadata: the package's CommonJS build of /max (which worker threads load
// through tsx) does not export the Metadata class.
import { Metadata } from 'libphonenumber-js/core';
import {
  getCountryCallingCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
  type CountryCode,
} from 'libphonenumber-js/max';
import maxMetadata from 'libphonenumber-js/max/metadata';
import { requestKeyOf, rngBelow, rngPick, rowRng, type Rng } from '../rng.js';
import { patternSampler, type PatternSampler } from './phone-pattern.js';

/**
 * Phone numbers a sign-up form accepts: valid for the country in libphonenumber's full ("max") metadata,
 * which is Google's copy of the national numbering plans, and spread over the plan's real mobile and
 * landline allocations. Per country, once per thread, the plan's MOBILE and FIXED_LINE patterns are sampled
 * into blocks of 1,000 numbers (a national prefix and a free three-digit ending) of which every one of the
 * 1,000 matches the pattern; a profile takes one number of one block. The numbers are synthetic: one may
 * belong to a real subscriber, which is why they are labelled `synthetic_format_valid`.
 *
 * On request (`phone_range: "fictional"`) the number comes from a range a regulator reserves for fiction
 * instead, labelled `fictional_reserved`; libphonenumber rejects most of them, as real forms do:
 * - GB: Ofcom, "Telephone numbers for use in TV and radio drama programmes": 07700 900000-900999 and the
 *   geographic drama ranges 020 7946 0000-0999, 0113/0117/0121/0131/0141/0151/0161 496 0000-0999,
 *   0191 498 0000-0999, 01632 960000-960999;
 * - US/NANP: NANPA reserves 555-0100 to 555-0199 in every area code for fictitious use.
 */
export type PhoneRange = 'fictional_reserved' | 'synthetic_format_valid';
/** What a request asks for: a number valid in the plan (default), or one of a reserved fiction range. */
export type PhoneRangeRequest = 'valid' | 'fictional';

export interface SyntheticPhone {
  /** International format, e.g. "+49 151 23456789". */
  readonly number: string;
  readonly range: PhoneRange;
}

/**
 * A dataset's phone slot: row `index` of a request whose rows must not share a number. The slot is mapped to
 * a number by a bijection of the country's block space keyed by `salt`, so rows with different indexes get
 * different numbers (up to the space's size, 1,000 per block) without knowing each other.
 */
export interface PhoneSlot {
  readonly index: number;
  readonly salt: number;
}

const endingDigits = 3;
const blockSize = 10 ** endingDigits;
/** Blocks per type: with both types 48,000 numbers per country, above the largest bulk dataset (10,000 rows). */
const mobileBlocks = 32;
const fixedLineBlocks = 16;
/** Pattern draws per type before giving up: a few sparse plans (tiny territories) have fewer blocks than asked. */
const drawsPerType = 400;

interface PhoneBlock {
  /** A number of the block in international format, e.g. "+33 6 12 34 56 78". */
  readonly template: string;
  /** Positions in `template` of the ending's three digits (the last three digits, across groups). */
  readonly slots: readonly [number, number, number];
}

interface CountryPlan {
  readonly blocks: readonly PhoneBlock[];
  /** The key of every block (its template with the ending's digits as `x`). */
  readonly keys: ReadonlySet<string>;
}

interface TypePattern {
  readonly pattern: RegExp;
  readonly sampler: PatternSampler;
  readonly lengths: ReadonlySet<number>;
  readonly target: number;
}

const plans = new Map<string, CountryPlan | null>();

/** The metadata's per-type view: present at runtime in libphonenumber-js, absent from its type declarations. */
interface PlanTypes {
  possibleLengths(): number[];
  type(
    name: 'MOBILE' | 'FIXED_LINE',
  ): { pattern(): string; possibleLengths(): number[] | undefined } | undefined;
}

function typePatterns(countryCode: string): TypePattern[] {
  const metadata = new Metadata(maxMetadata);
  metadata.selectNumberingPlan(countryCode as CountryCode);
  const plan = metadata.numberingPlan as unknown as PlanTypes | undefined;
  if (plan === undefined) return [];
  const out: TypePattern[] = [];
  for (const [type, target] of [
    ['MOBILE', mobileBlocks],
    ['FIXED_LINE', fixedLineBlocks],
  ] as const) {
    const info = plan.type(type);
    const source = info?.pattern();
    if (info === undefined || source === undefined) continue;
    try {
      out.push({
        pattern: new RegExp(`^(?:${source})$`),
        sampler: patternSampler(source),
        lengths: new Set(info.possibleLengths() ?? plan.possibleLengths()),
        target,
      });
    } catch {
      // A pattern outside the sampler's regex subset: that type contributes no blocks.
    }
  }
  return out;
}

/** Every ending of the prefix matches the type's pattern. */
function wholeBlockMatches(prefix: string, pattern: RegExp): boolean {
  for (let ending = 0; ending < blockSize; ending++)
    if (!pattern.test(prefix + String(ending).padStart(endingDigits, '0'))) return false;
  return true;
}

/** Positions of the last three digits of a formatted number. */
function endingSlots(formatted: string): [number, number, number] {
  const positions: number[] = [];
  for (let i = formatted.length - 1; i >= 0 && positions.length < endingDigits; i--) {
    const code = formatted.charCodeAt(i);
    if (code >= 48 && code <= 57) positions.unshift(i);
  }
  return positions as [number, number, number];
}

/** The formatted number with its ending's digits as `x`: the same for every number of one block. */
function blockKey(formatted: string): string {
  const [a, b, c] = endingSlots(formatted);
  return `${formatted.slice(0, a)}x${formatted.slice(a + 1, b)}x${formatted.slice(b + 1, c)}x${formatted.slice(c + 1)}`;
}

/** The block of a sample, when libphonenumber puts the sample in this country (a shared calling code). */
function blockOf(countryCode: string, callingCode: string, sample: string): PhoneBlock | null {
  const parsed = parsePhoneNumberFromString(`+${callingCode}${sample}`);
  if (parsed === undefined || parsed.country !== countryCode || !parsed.isValid()) return null;
  const template = parsed.formatInternational();
  return { template, slots: endingSlots(template) };
}

function buildPlan(countryCode: string): CountryPlan | null {
  if (!isSupportedCountry(countryCode)) return null;
  const callingCode = getCountryCallingCode(countryCode as CountryCode);
  // A fixed rng per country: the blocks are the same in every thread and after every restart.
  const rng = rowRng(requestKeyOf('phone-plan', countryCode), 0);
  const blocks: PhoneBlock[] = [];
  const seen = new Set<string>();
  for (const type of typePatterns(countryCode)) {
    let found = 0;
    for (let draw = 0; draw < drawsPerType && found < type.target; draw++) {
      const sample = type.sampler(rng);
      if (!type.lengths.has(sample.length) || !type.pattern.test(sample)) continue;
      const prefix = sample.slice(0, -endingDigits);
      if (seen.has(prefix)) continue;
      seen.add(prefix);
      if (!wholeBlockMatches(prefix, type.pattern)) continue;
      const block = blockOf(countryCode, callingCode, sample);
      if (block === null) continue;
      blocks.push(block);
      found++;
    }
  }
  if (blocks.length === 0) return null;
  return { blocks, keys: new Set(blocks.map((block) => blockKey(block.template))) };
}

function planOf(countryCode: string): CountryPlan | null {
  let plan = plans.get(countryCode);
  if (plan === undefined) {
    plan = buildPlan(countryCode);
    plans.set(countryCode, plan);
  }
  return plan;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** Slot -> position in [0, size): x -> (a x + b) mod size with a coprime to size, a bijection. */
function slotPosition(slot: PhoneSlot, size: number): number {
  let a = 1 + (slot.salt % Math.max(1, size - 1));
  while (gcd(a, size) !== 1) a++;
  const b = Math.floor(slot.salt / 7) % size;
  return (a * (slot.index % size) + b) % size;
}

const gbDramaHeads = [
  '+44 7700 900',
  '+44 20 7946 0',
  '+44 113 496 0',
  '+44 117 496 0',
  '+44 121 496 0',
  '+44 131 496 0',
  '+44 141 496 0',
  '+44 151 496 0',
  '+44 161 496 0',
  '+44 191 498 0',
  '+44 1632 960',
] as const;
const nanpAreaCodes = ['201', '202', '212', '312', '415', '617'] as const;

/** Countries with a reserved fiction range this engine draws from. */
export const fictionalRangeCountries: readonly string[] = ['GB', 'US'];

function fictionalPhone(countryCode: string, rng: Rng): SyntheticPhone | null {
  if (countryCode === 'GB')
    return {
      number: `${rngPick(rng, gbDramaHeads)}${String(rngBelow(rng, blockSize)).padStart(3, '0')}`,
      range: 'fictional_reserved',
    };
  if (countryCode === 'US')
    return {
      number: `+1 ${rngPick(rng, nanpAreaCodes)} 555 01${String(rngBelow(rng, 100)).padStart(2, '0')}`,
      range: 'fictional_reserved',
    };
  return null;
}

/**
 * A number of the country's plan (or of its fiction range on request); null when libphonenumber knows no plan
 * for the country. Without a slot the position is drawn from `rng`.
 */
export function syntheticPhone(
  countryCode: string,
  rng: Rng,
  request: PhoneRangeRequest = 'valid',
  slot?: PhoneSlot,
): SyntheticPhone | null {
  if (request === 'fictional') return fictionalPhone(countryCode, rng);
  const plan = planOf(countryCode);
  if (plan === null) return null;
  const size = plan.blocks.length * blockSize;
  const position = slot === undefined ? rngBelow(rng, size) : slotPosition(slot, size);
  const block = plan.blocks[Math.floor(position / blockSize)] as PhoneBlock;
  const ending = String(position % blockSize).padStart(endingDigits, '0');
  const [a, b, c] = block.slots;
  const t = block.template;
  return {
    number: `${t.slice(0, a)}${ending[0]}${t.slice(a + 1, b)}${ending[1]}${t.slice(b + 1, c)}${ending[2]}${t.slice(c + 1)}`,
    range: 'synthetic_format_valid',
  };
}

/** True for the reserved fiction ranges above (E.164 without formatting). */
export function isFictionalReserved(e164: string): boolean {
  return (
    /^\+44(?:7700900|207946[0]|1(?:1[37]|[2-6]1)4960|1914980|1632960)\d{3}$/.test(e164) ||
    /^\+1\d{3}55501\d{2}$/.test(e164)
  );
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

/**
 * Is the phone a valid number of the country for libphonenumber (max metadata)? A number of one of the
 * country's blocks is known valid (every block was checked whole); anything else is parsed.
 */
export function phoneValidForCountry(phone: string, countryCode: string): boolean {
  const plan = planOf(countryCode);
  if (plan !== null && endingSlots(phone).length === endingDigits && plan.keys.has(blockKey(phone)))
    return true;
  const prefix = callingPrefixOf(countryCode);
  const e164 = phone.replace(/[\s()-]/g, '');
  if (prefix === null || !e164.startsWith(prefix)) return false;
  const parsed = parsePhoneNumberFromString(e164);
  return parsed?.country === countryCode && parsed.isValid();
}
