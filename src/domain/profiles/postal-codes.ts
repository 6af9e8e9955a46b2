import { rngBelow, rngDigits, rngPick, type Rng } from '../rng.js';

/**
 * Postal codes in each country's published format (the national postal operators' formats as listed by the
 * UPU Postal Addressing Systems). `pattern` is the whole-string format; `generate` draws a synthetic code in it,
 * inside the leading-digit ranges the country actually uses, so a code looks right without claiming a real
 * delivery point.
 */
export interface PostalFormat {
  readonly pattern: RegExp;
  generate(rng: Rng): string;
}

const between = (rng: Rng, low: number, high: number, width: number) =>
  String(low + rngBelow(rng, high - low + 1)).padStart(width, '0');
const upper = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

function digitsFormat(
  width: number,
  low: number,
  high: number,
  pattern: RegExp,
  shape?: (digits: string) => string,
): PostalFormat {
  return {
    pattern,
    generate: (rng) => (shape ?? ((d: string) => d))(between(rng, low, high, width)),
  };
}

/** Royal Mail: outward code (area + district) and inward code (sector digit + two unit letters without C I K M O V). */
const ukAreas = [
  'B',
  'BS',
  'CF',
  'E',
  'EC',
  'G',
  'L',
  'LS',
  'M',
  'N',
  'NE',
  'NW',
  'S',
  'SE',
  'SW',
  'W',
] as const;
const ukUnitLetters = 'ABDEFGHJLNPQRSTUWXYZ';
const gb: PostalFormat = {
  pattern: /^[A-Z]{1,2}\d[A-Z\d]? \d[ABD-HJLNP-UW-Z]{2}$/,
  generate: (rng) =>
    `${rngPick(rng, ukAreas)}${1 + rngBelow(rng, 9)} ${rngBelow(rng, 10)}${rngPick(rng, [...ukUnitLetters])}${rngPick(rng, [...ukUnitLetters])}`,
};

/** Eircode: routing key (letter + two digits, D6W the one exception) and a four-character unique identifier. */
const eircodeChars = 'ACDEFHKNPRTVWXY0123456789';
const eircodeLetters = 'ACDEFHKNPRTVWXY';
const ieRoutingKeys = [
  'A94',
  'D01',
  'D02',
  'D04',
  'D08',
  'D15',
  'D24',
  'H91',
  'T12',
  'V94',
  'X91',
  'F92',
] as const;
const ie: PostalFormat = {
  pattern: /^[AC-FHKNPRTV-Y]\d{2} [AC-FHKNPRTV-Y\d]{4}$/,
  generate: (rng) =>
    `${rngPick(rng, ieRoutingKeys)} ${rngPick(rng, [...eircodeLetters])}${Array.from({ length: 3 }, () => rngPick(rng, [...eircodeChars])).join('')}`,
};

/** PostNL: four digits 1000-9999 and two letters, never SA, SD or SS. */
const nl: PostalFormat = {
  pattern: /^[1-9]\d{3} (?!SA|SD|SS)[A-Z]{2}$/,
  generate(rng) {
    for (;;) {
      const letters = upper.charAt(rngBelow(rng, 26)) + upper.charAt(rngBelow(rng, 26));
      if (letters !== 'SA' && letters !== 'SD' && letters !== 'SS')
        return `${between(rng, 1000, 9999, 4)} ${letters}`;
    }
  },
};

const space3 = (d: string) => `${d.slice(0, 3)} ${d.slice(3)}`;

/** Codes of one repeated digit (0000, 4444) read as placeholders; generation skips them. */
function withoutRepeats(format: PostalFormat): PostalFormat {
  return {
    pattern: format.pattern,
    generate(rng) {
      for (;;) {
        const code = format.generate(rng);
        if (!/^(\d)\1+$/.test(code.replace(/\D/g, ''))) return code;
      }
    },
  };
}

const formats: Readonly<Record<string, PostalFormat>> = {
  AT: digitsFormat(4, 1010, 9992, /^[1-9]\d{3}$/),
  AZ: { pattern: /^AZ \d{4}$/, generate: (rng) => `AZ ${between(rng, 1000, 6999, 4)}` },
  BE: digitsFormat(4, 1000, 9992, /^[1-9]\d{3}$/),
  BR: {
    pattern: /^\d{5}-\d{3}$/,
    generate: (rng) => `${between(rng, 1000, 99999, 5)}-${rngDigits(rng, 3)}`,
  },
  CH: digitsFormat(4, 1000, 9658, /^[1-9]\d{3}$/),
  CZ: digitsFormat(5, 10000, 79999, /^[1-7]\d{2} \d{2}$/, space3),
  DE: digitsFormat(5, 1067, 99998, /^\d{5}$/),
  DK: digitsFormat(4, 1000, 9990, /^[1-9]\d{3}$/),
  ES: {
    pattern: /^(0[1-9]|[1-4]\d|5[0-2])\d{3}$/,
    generate: (rng) => between(rng, 1, 52, 2) + between(rng, 1, 999, 3),
  },
  FI: digitsFormat(5, 100, 99999, /^\d{5}$/),
  FR: {
    pattern: /^(0[1-9]|[1-8]\d|9[0-5])\d{3}$/,
    generate: (rng) => {
      const d = rngBelow(rng, 94) + 1;
      return String(d === 20 ? 21 : d).padStart(2, '0') + between(rng, 0, 999, 3);
    },
  },
  GB: gb,
  GE: digitsFormat(4, 100, 6999, /^\d{4}$/),
  GR: digitsFormat(5, 10000, 85999, /^[1-8]\d{2} \d{2}$/, space3),
  HR: digitsFormat(5, 10000, 53999, /^[1-5]\d{4}$/),
  HU: digitsFormat(4, 1000, 9985, /^[1-9]\d{3}$/),
  IE: ie,
  IL: digitsFormat(7, 1000000, 9999999, /^\d{7}$/),
  IT: digitsFormat(5, 10, 98168, /^\d{5}$/),
  LU: { pattern: /^L-\d{4}$/, generate: (rng) => `L-${between(rng, 1009, 9999, 4)}` },
  LV: { pattern: /^LV-\d{4}$/, generate: (rng) => `LV-${between(rng, 1001, 5799, 4)}` },
  MD: { pattern: /^MD-\d{4}$/, generate: (rng) => `MD-${between(rng, 2000, 7099, 4)}` },
  MK: digitsFormat(4, 1000, 7550, /^[1-7]\d{3}$/),
  NL: nl,
  NO: digitsFormat(4, 1, 9991, /^\d{4}$/),
  PL: {
    pattern: /^\d{2}-\d{3}$/,
    generate: (rng) => `${between(rng, 0, 99, 2)}-${between(rng, 1, 999, 3)}`,
  },
  PT: {
    pattern: /^[1-9]\d{3}-\d{3}$/,
    generate: (rng) => `${between(rng, 1000, 9980, 4)}-${rngDigits(rng, 3)}`,
  },
  RO: digitsFormat(6, 10011, 927999, /^\d{6}$/),
  RS: digitsFormat(5, 11000, 38999, /^[1-3]\d{4}$/),
  RU: digitsFormat(6, 101000, 692999, /^[1-6]\d{5}$/),
  SE: digitsFormat(5, 10005, 98499, /^[1-9]\d{2} \d{2}$/, space3),
  SI: digitsFormat(4, 1000, 9265, /^[1-9]\d{3}$/),
  SK: digitsFormat(5, 1000 * 10, 99999, /^[0-9]\d{2} \d{2}$/, space3),
  TR: {
    pattern: /^(0[1-9]|[1-7]\d|8[01])\d{3}$/,
    generate: (rng) => between(rng, 1, 81, 2) + between(rng, 0, 999, 3),
  },
  UA: digitsFormat(5, 1001, 99999, /^\d{5}$/),
  US: digitsFormat(5, 1001, 99950, /^\d{5}$/),
};

export const postalFormats: Readonly<Record<string, PostalFormat>> = Object.fromEntries(
  Object.entries(formats).map(([code, format]) => [code, withoutRepeats(format)]),
);
