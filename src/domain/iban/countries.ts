import { assert } from '../../assert.js';

/**
 * The IBAN countries of the SWIFT IBAN Registry (ISO 13616 Registration Authority), 89 country
 * codes. Structures, lengths, bank/branch positions, SEPA flags and examples follow the registry's
 * text release; see README.md in this folder for the releases compared and the few deliberate
 * deviations (all marked "deviation" below). Facts only: nothing here is copied code.
 */

/** SWIFT notation: n digits, a upper-case letters, c upper-case letters or digits. */
export type CharKind = 'n' | 'a' | 'c';
export interface BbanPart {
  readonly kind: CharKind;
  readonly length: number;
}
/** 0-based inside the BBAN. */
export interface Span {
  readonly offset: number;
  readonly length: number;
}
export interface CountryFormat {
  readonly code: string;
  readonly name: string;
  readonly aliases: readonly string[];
  readonly ibanLength: number;
  readonly bbanLength: number;
  /** e.g. '8!n10!n' */
  readonly bbanSpec: string;
  readonly parts: readonly BbanPart[];
  readonly bankCode: Span;
  readonly branchCode: Span | null;
  readonly accountNumber: Span;
  /** Dedicated national check-digit positions of the BBAN, if the country has them. */
  readonly nationalCheckDigits: Span | null;
  readonly sepa: boolean;
  /** The registry's example IBAN (electronic format). */
  readonly example: string;
}

/** ISO 13616: an IBAN never exceeds 34 characters (2 letters, 2 check digits, BBAN up to 30). */
export const ibanLengthMax = 34;
/** Country code (2) + check digits (2) precede the BBAN. */
export const bbanOffset = 4;

/**
 * One registry row. Positions are 1-based inclusive ranges as the registry prints them ('1-8').
 * `account` is our split of the rest of the BBAN (the registry gives no account position);
 * `check` marks a dedicated national check-digit element where the national scheme defines one.
 * Countries whose check digit sits inside the account number itself (DE, CZ, SK, FI, EE, HR, IS,
 * SE...) have `check` null: the account number carries it.
 */
type Row = readonly [
  code: string,
  name: string,
  aliases: readonly string[],
  bbanSpec: string,
  bank: string,
  branch: string | null,
  account: string,
  check: string | null,
  sepa: boolean,
  example: string,
];

const rows: readonly Row[] = [
  ['AD', 'Andorra', [], '4!n4!n12!c', '1-4', '5-8', '9-20', null, true, 'AD1200012030200359100100'],
  [
    'AE',
    'United Arab Emirates',
    ['United Arab Emirates (The)', 'UAE'],
    '3!n16!n',
    '1-3',
    null,
    '4-19',
    null,
    false,
    'AE070331234567890123456',
  ],
  // AL: bank 3 + branch 4 + check digit 1; the registry's branch (4-8) includes that check digit.
  [
    'AL',
    'Albania',
    [],
    '8!n16!c',
    '1-3',
    '4-8',
    '9-24',
    '8-8',
    false,
    'AL47212110090000000235698741',
  ],
  ['AT', 'Austria', [], '5!n11!n', '1-5', null, '6-16', null, true, 'AT611904300234573201'],
  [
    'AZ',
    'Azerbaijan',
    [],
    '4!a20!c',
    '1-4',
    null,
    '5-24',
    null,
    false,
    'AZ21NABZ00000000137010001944',
  ],
  [
    'BA',
    'Bosnia and Herzegovina',
    ['Bosnia-Herzegovina', 'Bosnia'],
    '3!n3!n8!n2!n',
    '1-3',
    '4-6',
    '7-14',
    '15-16',
    false,
    'BA391290079401028494',
  ],
  ['BE', 'Belgium', [], '3!n7!n2!n', '1-3', null, '4-10', '11-12', true, 'BE68539007547034'],
  [
    'BG',
    'Bulgaria',
    [],
    '4!a4!n2!n8!c',
    '1-4',
    '5-8',
    '9-18',
    null,
    true,
    'BG80BNBG96611020345678',
  ],
  ['BH', 'Bahrain', [], '4!a14!c', '1-4', null, '5-18', null, false, 'BH67BMAG00001299123456'],
  [
    'BI',
    'Burundi',
    [],
    '5!n5!n11!n2!n',
    '1-5',
    '6-10',
    '11-23',
    null,
    false,
    'BI4210000100010000332045181',
  ],
  // BR: account 10!n, then account type 1!a and holder position 1!c (part of the account).
  [
    'BR',
    'Brazil',
    [],
    '8!n5!n10!n1!a1!c',
    '1-8',
    '9-13',
    '14-25',
    null,
    false,
    'BR1800360305000010009795493C1',
  ],
  [
    'BY',
    'Belarus',
    ['Republic of Belarus'],
    '4!c4!n16!c',
    '1-4',
    null,
    '5-24',
    null,
    false,
    'BY13NBRB3600900000002Z00AB00',
  ],
  ['CH', 'Switzerland', [], '5!n12!c', '1-5', null, '6-17', null, true, 'CH9300762011623852957'],
  ['CR', 'Costa Rica', [], '4!n14!n', '1-4', null, '5-18', null, false, 'CR05015202001026284066'],
  [
    'CY',
    'Cyprus',
    [],
    '3!n5!n16!c',
    '1-3',
    '4-8',
    '9-24',
    null,
    true,
    'CY17002001280000001200527600',
  ],
  [
    'CZ',
    'Czechia',
    ['Czech Republic'],
    '4!n16!n',
    '1-4',
    null,
    '5-20',
    null,
    true,
    'CZ6508000000192000145399',
  ],
  ['DE', 'Germany', [], '8!n10!n', '1-8', null, '9-18', null, true, 'DE89370400440532013000'],
  [
    'DJ',
    'Djibouti',
    [],
    '5!n5!n11!n2!n',
    '1-5',
    '6-10',
    '11-21',
    '22-23',
    false,
    'DJ2100010000000154000100186',
  ],
  ['DK', 'Denmark', [], '4!n9!n1!n', '1-4', null, '5-14', null, true, 'DK5000400440116243'],
  [
    'DO',
    'Dominican Republic',
    [],
    '4!c20!n',
    '1-4',
    null,
    '5-24',
    null,
    false,
    'DO28BAGR00000001212453611324',
  ],
  ['EE', 'Estonia', [], '2!n14!n', '1-2', null, '3-16', null, true, 'EE382200221020145685'],
  [
    'EG',
    'Egypt',
    [],
    '4!n4!n17!n',
    '1-4',
    '5-8',
    '9-25',
    null,
    false,
    'EG380019000500000000263180002',
  ],
  [
    'ES',
    'Spain',
    [],
    '4!n4!n1!n1!n10!n',
    '1-4',
    '5-8',
    '11-20',
    '9-10',
    true,
    'ES9121000418450200051332',
  ],
  ['FI', 'Finland', [], '3!n11!n', '1-3', null, '4-14', null, true, 'FI2112345600000785'],
  [
    'FK',
    'Falkland Islands',
    ['Falkland Islands (Malvinas)'],
    '2!a12!n',
    '1-2',
    null,
    '3-14',
    null,
    false,
    'FK88SC123456789012',
  ],
  [
    'FO',
    'Faroe Islands',
    ['Faroes'],
    '4!n9!n1!n',
    '1-4',
    null,
    '5-14',
    null,
    false,
    'FO6264600001631634',
  ],
  // FR deviation: the registry text leaves the branch blank; the BBAN's second 5!n is the code guichet.
  [
    'FR',
    'France',
    [],
    '5!n5!n11!c2!n',
    '1-5',
    '6-10',
    '11-21',
    '22-23',
    true,
    'FR1420041010050500013M02606',
  ],
  [
    'GB',
    'United Kingdom',
    [
      'UK',
      'U.K.',
      'Great Britain',
      'Britain',
      'United Kingdom of Great Britain and Northern Ireland',
    ],
    '4!a6!n8!n',
    '1-4',
    '5-10',
    '11-18',
    null,
    true,
    'GB29NWBK60161331926819',
  ],
  ['GE', 'Georgia', [], '2!a16!n', '1-2', null, '3-18', null, false, 'GE29NB0000000101904917'],
  ['GI', 'Gibraltar', [], '4!a15!c', '1-4', null, '5-19', null, true, 'GI75NWBK000000007099453'],
  ['GL', 'Greenland', [], '4!n9!n1!n', '1-4', null, '5-14', null, false, 'GL8964710001000206'],
  [
    'GR',
    'Greece',
    ['Hellas', 'Hellenic Republic'],
    '3!n4!n16!c',
    '1-3',
    '4-7',
    '8-23',
    null,
    true,
    'GR1601101250000000012300695',
  ],
  [
    'GT',
    'Guatemala',
    [],
    '4!c20!c',
    '1-4',
    null,
    '5-24',
    null,
    false,
    'GT82TRAJ01020000001210029690',
  ],
  [
    'HN',
    'Honduras',
    [],
    '4!a20!n',
    '1-4',
    null,
    '5-24',
    null,
    false,
    'HN88CABF00000000000250005469',
  ],
  ['HR', 'Croatia', [], '7!n10!n', '1-7', null, '8-17', null, true, 'HR1210010051863000160'],
  // HU: bank 3 + branch 4 + check digit 1 form the giro code; the account carries its own check digit.
  [
    'HU',
    'Hungary',
    [],
    '3!n4!n1!n15!n1!n',
    '1-3',
    '4-7',
    '9-24',
    '8-8',
    true,
    'HU42117730161111101800000000',
  ],
  [
    'IE',
    'Ireland',
    ['Republic of Ireland'],
    '4!a6!n8!n',
    '1-4',
    '5-10',
    '11-18',
    null,
    true,
    'IE29AIBK93115212345678',
  ],
  ['IL', 'Israel', [], '3!n3!n13!n', '1-3', '4-6', '7-19', null, false, 'IL620108000000099999999'],
  ['IQ', 'Iraq', [], '4!a3!n12!n', '1-4', '5-7', '8-19', null, false, 'IQ98NBIQ850123456789012'],
  // IS: account type 2!n + account 6!n + the holder's kennitala 10!n (with its own check digit).
  [
    'IS',
    'Iceland',
    [],
    '4!n2!n6!n10!n',
    '1-2',
    '3-4',
    '5-22',
    null,
    true,
    'IS140159260076545510730339',
  ],
  [
    'IT',
    'Italy',
    [],
    '1!a5!n5!n12!c',
    '2-6',
    '7-11',
    '12-23',
    '1-1',
    true,
    'IT60X0542811101000000123456',
  ],
  [
    'JO',
    'Jordan',
    [],
    '4!a4!n18!c',
    '1-4',
    '5-8',
    '9-26',
    null,
    false,
    'JO94CBJO0010000000000131000302',
  ],
  [
    'KW',
    'Kuwait',
    [],
    '4!a22!c',
    '1-4',
    null,
    '5-26',
    null,
    false,
    'KW81CBKU0000000000001234560101',
  ],
  ['KZ', 'Kazakhstan', [], '3!n13!c', '1-3', null, '4-16', null, false, 'KZ86125KZT5004100100'],
  [
    'LB',
    'Lebanon',
    [],
    '4!n20!c',
    '1-4',
    null,
    '5-24',
    null,
    false,
    'LB62099900000001001901229114',
  ],
  [
    'LC',
    'Saint Lucia',
    ['St Lucia', 'St. Lucia'],
    '4!a24!c',
    '1-4',
    null,
    '5-28',
    null,
    false,
    'LC55HEMM000100010012001200023015',
  ],
  ['LI', 'Liechtenstein', [], '5!n12!c', '1-5', null, '6-17', null, true, 'LI21088100002324013AA'],
  ['LT', 'Lithuania', [], '5!n11!n', '1-5', null, '6-16', null, true, 'LT121000011101001000'],
  ['LU', 'Luxembourg', [], '3!n13!c', '1-3', null, '4-16', null, true, 'LU280019400644750000'],
  ['LV', 'Latvia', [], '4!a13!c', '1-4', null, '5-17', null, true, 'LV80BANK0000435195001'],
  ['LY', 'Libya', [], '3!n3!n15!n', '1-3', '4-6', '7-21', null, false, 'LY83002048000020100120361'],
  [
    'MC',
    'Monaco',
    [],
    '5!n5!n11!c2!n',
    '1-5',
    '6-10',
    '11-21',
    '22-23',
    true,
    'MC5811222000010123456789030',
  ],
  [
    'MD',
    'Moldova',
    ['Republic of Moldova', 'Moldova, Republic of'],
    '2!c18!c',
    '1-2',
    null,
    '3-20',
    null,
    false,
    'MD24AG000225100013104168',
  ],
  [
    'ME',
    'Montenegro',
    [],
    '3!n13!n2!n',
    '1-3',
    null,
    '4-16',
    '17-18',
    false,
    'ME25505000012345678951',
  ],
  [
    'MK',
    'North Macedonia',
    ['Macedonia', 'Republic of North Macedonia', 'Macedonia, The Former Yugoslav Republic of'],
    '3!n10!c2!n',
    '1-3',
    null,
    '4-13',
    '14-15',
    false,
    'MK07250120000058984',
  ],
  ['MN', 'Mongolia', [], '4!n12!n', '1-4', null, '5-16', null, false, 'MN121234123456789123'],
  [
    'MR',
    'Mauritania',
    [],
    '5!n5!n11!n2!n',
    '1-5',
    '6-10',
    '11-21',
    '22-23',
    false,
    'MR1300020001010000123456753',
  ],
  [
    'MT',
    'Malta',
    [],
    '4!a5!n18!c',
    '1-4',
    '5-9',
    '10-27',
    null,
    true,
    'MT84MALT011000012345MTLCAST001S',
  ],
  // MU: account 12!n, reserved 3!n and currency 3!a (all part of the account).
  [
    'MU',
    'Mauritius',
    [],
    '4!a2!n2!n12!n3!n3!a',
    '1-6',
    '7-8',
    '9-26',
    null,
    false,
    'MU17BOMM0101101030300200000MUR',
  ],
  [
    'NI',
    'Nicaragua',
    [],
    '4!a20!n',
    '1-4',
    null,
    '5-24',
    null,
    false,
    'NI45BAPR00000013000003558124',
  ],
  [
    'NL',
    'Netherlands',
    ['The Netherlands', 'Netherlands (The)', 'Holland'],
    '4!a10!n',
    '1-4',
    null,
    '5-14',
    null,
    true,
    'NL91ABNA0417164300',
  ],
  ['NO', 'Norway', [], '4!n6!n1!n', '1-4', null, '5-10', '11-11', true, 'NO9386011117947'],
  ['OM', 'Oman', [], '3!n16!c', '1-3', null, '4-19', null, false, 'OM810180000001299123456'],
  ['PK', 'Pakistan', [], '4!a16!c', '1-4', null, '5-20', null, false, 'PK36SCBL0000001123456702'],
  // PL: the 8-digit sort code (bank identifier) ends with its own check digit.
  ['PL', 'Poland', [], '8!n16!n', '1-8', null, '9-24', '8-8', true, 'PL61109010140000071219812874'],
  [
    'PS',
    'Palestine',
    ['State of Palestine', 'Palestine, State of'],
    '4!a21!c',
    '1-4',
    null,
    '5-25',
    null,
    false,
    'PS92PALS000000000400123456702',
  ],
  [
    'PT',
    'Portugal',
    [],
    '4!n4!n11!n2!n',
    '1-4',
    '5-8',
    '9-19',
    '20-21',
    true,
    'PT50000201231234567890154',
  ],
  ['QA', 'Qatar', [], '4!a21!c', '1-4', null, '5-25', null, false, 'QA58DOHB00001234567890ABCDEFG'],
  ['RO', 'Romania', [], '4!a16!c', '1-4', null, '5-20', null, true, 'RO49AAAA1B31007593840000'],
  ['RS', 'Serbia', [], '3!n13!n2!n', '1-3', null, '4-16', '17-18', false, 'RS35260005601001611379'],
  [
    'RU',
    'Russia',
    ['Russian Federation'],
    '9!n5!n15!c',
    '1-9',
    '10-14',
    '15-29',
    null,
    false,
    'RU0304452522540817810538091310419',
  ],
  [
    'SA',
    'Saudi Arabia',
    [],
    '2!n18!c',
    '1-2',
    null,
    '3-20',
    null,
    false,
    'SA0380000000608010167519',
  ],
  [
    'SC',
    'Seychelles',
    [],
    '4!a2!n2!n16!n3!a',
    '1-6',
    '7-8',
    '9-27',
    null,
    false,
    'SC18SSCB11010000000000001497USD',
  ],
  ['SD', 'Sudan', [], '2!n12!n', '1-2', null, '3-14', null, false, 'SD2129010501234001'],
  ['SE', 'Sweden', [], '3!n16!n1!n', '1-3', null, '4-20', null, true, 'SE4550000000058398257466'],
  ['SI', 'Slovenia', [], '5!n8!n2!n', '1-5', null, '6-13', '14-15', true, 'SI56263300012039086'],
  [
    'SK',
    'Slovakia',
    ['Slovak Republic'],
    '4!n6!n10!n',
    '1-4',
    null,
    '5-20',
    null,
    true,
    'SK3112000000198742637541',
  ],
  [
    'SM',
    'San Marino',
    [],
    '1!a5!n5!n12!c',
    '2-6',
    '7-11',
    '12-23',
    '1-1',
    true,
    'SM86U0322509800000000270100',
  ],
  ['SO', 'Somalia', [], '4!n3!n12!n', '1-4', '5-7', '8-19', null, false, 'SO211000001001000100141'],
  [
    'ST',
    'Sao Tome and Principe',
    [],
    '4!n4!n11!n2!n',
    '1-4',
    '5-8',
    '9-21',
    null,
    false,
    'ST23000100010051845310146',
  ],
  [
    'SV',
    'El Salvador',
    [],
    '4!a20!n',
    '1-4',
    null,
    '5-24',
    null,
    false,
    'SV62CENR00000000000000700025',
  ],
  [
    'TL',
    'Timor-Leste',
    ['East Timor'],
    '3!n14!n2!n',
    '1-3',
    null,
    '4-17',
    '18-19',
    false,
    'TL380080012345678910157',
  ],
  [
    'TN',
    'Tunisia',
    [],
    '2!n3!n13!n2!n',
    '1-2',
    '3-5',
    '6-18',
    '19-20',
    false,
    'TN5910006035183598478831',
  ],
  // TR: the 1!n after the bank code is a reserved digit; it travels with the account.
  [
    'TR',
    'Türkiye',
    ['Turkey', 'Republic of Türkiye'],
    '5!n1!n16!c',
    '1-5',
    null,
    '6-22',
    null,
    false,
    'TR330006100519786457841326',
  ],
  [
    'UA',
    'Ukraine',
    [],
    '6!n19!c',
    '1-6',
    null,
    '7-25',
    null,
    false,
    'UA213223130000026007233566001',
  ],
  [
    'VA',
    'Holy See',
    ['Vatican City', 'Vatican City State', 'Vatican'],
    '3!n15!n',
    '1-3',
    null,
    '4-18',
    null,
    true,
    'VA59001123000012345678',
  ],
  [
    'VG',
    'British Virgin Islands',
    ['Virgin Islands (British)', 'Virgin Islands, British', 'BVI'],
    '4!a16!n',
    '1-4',
    null,
    '5-20',
    null,
    false,
    'VG96VPVG0000012345678901',
  ],
  ['XK', 'Kosovo', [], '4!n10!n2!n', '1-2', '3-4', '5-14', '15-16', false, 'XK051212012345678906'],
  [
    'YE',
    'Yemen',
    [],
    '4!a4!n18!c',
    '1-4',
    '5-8',
    '9-26',
    null,
    false,
    'YE15CBYE0001018861234567891234',
  ],
];

/** Parses SWIFT BBAN notation ('4!a6!n8!n'): only fixed-length ('!') elements occur in IBANs. */
export function parseBbanSpec(spec: string): BbanPart[] {
  const parts: BbanPart[] = [];
  let index = 0;
  while (index < spec.length) {
    let length = 0;
    while (index < spec.length && spec.charCodeAt(index) >= 48 && spec.charCodeAt(index) <= 57) {
      length = length * 10 + (spec.charCodeAt(index) - 48);
      index++;
    }
    const bang = spec.charAt(index);
    const kind = spec.charAt(index + 1);
    assert(length > 0 && bang === '!', `fixed-length element in BBAN spec ${spec}`);
    assert(
      kind === 'n' || kind === 'a' || kind === 'c',
      `known character kind in BBAN spec ${spec}`,
    );
    parts.push({ kind, length });
    index += 2;
  }
  return parts;
}

function parseRange(range: string, bbanLength: number): Span {
  const [first, last] = range.split('-').map(Number);
  assert(first !== undefined && last !== undefined, `range ${range}`);
  assert(Number.isInteger(first) && Number.isInteger(last), `numeric range ${range}`);
  assert(first >= 1 && first <= last && last <= bbanLength, `range ${range} inside the BBAN`);
  return { offset: first - 1, length: last - first + 1 };
}

function coveredPositions(bbanLength: number, spans: readonly (Span | null)[]): number {
  const covered = new Uint8Array(bbanLength);
  for (const span of spans) {
    if (span !== null) covered.fill(1, span.offset, span.offset + span.length);
  }
  return covered.reduce((sum, flag) => sum + flag, 0);
}

function toFormat(row: Row): CountryFormat {
  const [code, name, aliases, bbanSpec, bank, branch, account, check, sepa, example] = row;
  const parts = parseBbanSpec(bbanSpec);
  const bbanLength = parts.reduce((sum, part) => sum + part.length, 0);
  const bankCode = parseRange(bank, bbanLength);
  const branchCode = branch === null ? null : parseRange(branch, bbanLength);
  const accountNumber = parseRange(account, bbanLength);
  const nationalCheckDigits = check === null ? null : parseRange(check, bbanLength);
  // Every BBAN position belongs to some component, so calculate() never meets an orphan position.
  const spans = [bankCode, branchCode, accountNumber, nationalCheckDigits];
  assert(coveredPositions(bbanLength, spans) === bbanLength, `${code} components cover the BBAN`);
  assert(bbanLength + bbanOffset <= ibanLengthMax, `${code} IBAN fits 34 characters`);
  assert(
    example.length === bbanLength + bbanOffset && example.startsWith(code),
    `${code} example shape`,
  );
  return {
    code,
    name,
    aliases,
    bbanSpec,
    parts,
    bbanLength,
    bankCode,
    branchCode,
    accountNumber,
    nationalCheckDigits,
    sepa,
    example,
    ibanLength: bbanLength + bbanOffset,
  };
}

export const countryFormats: readonly CountryFormat[] = rows.map(toFormat);

const formatsByCode: ReadonlyMap<string, CountryFormat> = new Map(
  countryFormats.map((format) => [format.code, format]),
);
assert(formatsByCode.size === countryFormats.length, 'country codes are unique');

/** By ISO 3166-1 alpha-2 code (upper case), O(1). */
export function countryFormatOf(code: string): CountryFormat | undefined {
  return formatsByCode.get(code);
}

/** The kind of every BBAN position, expanded from `parts`. */
export function bbanKinds(format: CountryFormat): CharKind[] {
  const kinds: CharKind[] = [];
  for (const part of format.parts) {
    for (let index = 0; index < part.length; index++) kinds.push(part.kind);
  }
  return kinds;
}
