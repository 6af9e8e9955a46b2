/**
 * The corpus documents with their expected verdicts. Account holders are fictional; bank names and BICs are
 * printed only where an independent source states them for the IBAN's bank code (bankdata-germany for
 * Germany, the BIC's own institution prefix for the Netherlands and the United Kingdom); the US statement names
 * no bank, and its routing number (prefix 80, traveler's cheques) is checksum-valid by the test's own ABA computation.
 */
import { bankDataByIBAN } from 'bankdata-germany';
import {
  appendIncrementalUpdate,
  bombPng,
  encryptedPdf,
  headerLines,
  statementPdf,
  statementPng,
  textPdf,
  type Row,
  type StatementSpec,
} from './corpus.js';

/** ABA 3-7-1 check digit, written here independently of src/domain/routing. */
export function abaWithCheckDigit(first8: string): string {
  const weights = [3, 7, 1, 3, 7, 1, 3, 7];
  const sum = [...first8].reduce(
    (total, digit, index) => total + Number(digit) * (weights[index] as number),
    0,
  );
  return `${first8}${(10 - (sum % 10)) % 10}`;
}

const commerzbank = bankDataByIBAN('DE89370400440532013000');
const dkb = bankDataByIBAN('DE02120300000000202051');
if (commerzbank === null || commerzbank === undefined || dkb === null || dkb === undefined)
  throw new Error('bankdata-germany lacks the test banks');

function germanRows(): Row[] {
  return [
    { date: '02.01.2025', description: 'Gehalt Januar', amount: '2.450,00', balance: '3.684,56' },
    { date: '05.01.2025', description: 'Miete', amount: '-950,00', balance: '2.734,56' },
    { date: '12.01.2025', description: 'Supermarkt', amount: '-87,43', balance: '2.647,13' },
    { date: '20.01.2025', description: 'Stromabschlag', amount: '-64,00', balance: '2.583,13' },
    { date: '28.01.2025', description: 'Erstattung', amount: '23,17', balance: '2.606,30' },
  ];
}

export const germanSpec: StatementSpec = {
  holder: 'Erika Beispiel',
  bankName: commerzbank.bankName,
  bic: commerzbank.bic,
  iban: 'DE89 3704 0044 0532 0130 00',
  period: '01.01.2025 - 31.01.2025',
  currency: 'EUR',
  opening: '1.234,56',
  closing: '2.606,30',
  rows: germanRows(),
};

export const dutchSpec: StatementSpec = {
  holder: 'Jan Voorbeeld',
  bankName: 'ABN AMRO',
  bic: 'ABNANL2A',
  iban: 'NL91 ABNA 0417 1643 00',
  period: '2025-03-01 to 2025-03-31',
  currency: 'EUR',
  opening: '500.00',
  closing: '1,689.50',
  rows: [
    { date: '2025-03-03', description: 'Salaris', amount: '1,800.00', balance: '2,300.00' },
    { date: '2025-03-10', description: 'Huur', amount: '-725.00', balance: '1,575.00' },
    { date: '2025-03-17', description: 'Boodschappen', amount: '-35.50', balance: '1,539.50' },
    { date: '2025-03-25', description: 'Teruggave', amount: '150.00', balance: '1,689.50' },
  ],
};

export const britishSpec: StatementSpec = {
  holder: 'Alex Example',
  bankName: 'National Westminster Bank Public Limited Company',
  bic: 'NWBKGB2L',
  iban: 'GB29 NWBK 6016 1331 9268 19',
  period: '01/04/2025 - 30/04/2025',
  currency: 'GBP',
  opening: '£1,000.00',
  closing: '£1,412.35',
  rows: [
    { date: '01/04/2025', description: 'Salary', amount: '£1,250.00', balance: '£2,250.00' },
    { date: '14/04/2025', description: 'Rent', amount: '-£800.00', balance: '£1,450.00' },
    { date: '22/04/2025', description: 'Groceries', amount: '-£37.65', balance: '£1,412.35' },
  ],
};

export const usRouting = abaWithCheckDigit('80000000');

export const americanSpec: StatementSpec = {
  holder: 'Jordan Sample',
  bankName: 'none (synthetic test document)',
  routing: usRouting,
  account: '000123456789',
  period: '05/01/2025 - 05/31/2025',
  currency: 'USD',
  opening: '$2,000.00',
  closing: '$2,795.10',
  rows: [
    { date: '05/02/2025', description: 'Payroll', amount: '$3,100.00', balance: '$5,100.00' },
    { date: '05/05/2025', description: 'Mortgage', amount: '-$2,100.00', balance: '$3,000.00' },
    { date: '05/19/2025', description: 'Utilities', amount: '-$204.90', balance: '$2,795.10' },
  ],
};

/** Twenty rows over two pages (the bench's two-page document). */
export function twoPageSpec(): StatementSpec {
  const rows: Row[] = [];
  let balance = 100_000; // cents
  for (let day = 1; day <= 20; day++) {
    const amount = day % 3 === 0 ? 12_345 : -2_311;
    balance += amount;
    const money = (cents: number) =>
      `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;
    rows.push({
      date: `2025-06-${String(day).padStart(2, '0')}`,
      description: `Payment ${day}`,
      amount: money(amount),
      balance: money(balance),
    });
  }
  return {
    ...dutchSpec,
    period: '2025-06-01 to 2025-06-30',
    opening: '1000.00',
    closing: rows[rows.length - 1]?.balance ?? '',
    rows,
    rowsPerPage: 12,
  };
}

export type Expected =
  | {
      readonly status: 'completed';
      readonly risk_level: 'low' | 'medium' | 'high';
      readonly is_bank_statement: boolean;
      readonly codes: readonly string[];
      readonly absent?: readonly string[];
      readonly iban?: string;
    }
  | { readonly status: 'analysis_failed'; readonly reason: string; readonly refunded: boolean };

export interface Sample {
  readonly name: string;
  readonly bytes: () => Promise<Uint8Array>;
  readonly expectedBank?: string;
  readonly expected: Expected;
}

const clean = [
  'BALANCES_RECONCILE',
  'RUNNING_BALANCES_CONSISTENT',
  'DATES_WITHIN_PERIOD',
  'SINGLE_REVISION',
  'NO_EDITOR_METADATA',
  'CONSISTENT_AMOUNT_FONTS',
];

export const samples: readonly Sample[] = [
  {
    name: 'clean German statement',
    bytes: () => statementPdf(germanSpec),
    expected: {
      status: 'completed',
      risk_level: 'low',
      is_bank_statement: true,
      codes: [...clean, 'IBAN_VALID', 'IBAN_MATCHES_REGISTRY'],
      iban: 'DE89370400440532013000',
    },
  },
  {
    name: 'clean Dutch statement',
    bytes: () => statementPdf(dutchSpec),
    expected: {
      status: 'completed',
      risk_level: 'low',
      is_bank_statement: true,
      codes: [...clean, 'IBAN_VALID', 'IBAN_MATCHES_REGISTRY'],
      iban: 'NL91ABNA0417164300',
    },
  },
  {
    name: 'clean British statement',
    bytes: () => statementPdf(britishSpec),
    expected: {
      status: 'completed',
      risk_level: 'low',
      is_bank_statement: true,
      codes: [...clean, 'IBAN_VALID'],
      iban: 'GB29NWBK60161331926819',
    },
  },
  {
    name: 'clean US statement',
    bytes: () => statementPdf(americanSpec),
    expected: {
      status: 'completed',
      risk_level: 'low',
      is_bank_statement: true,
      codes: [...clean, 'ROUTING_NUMBER_VALID'],
    },
  },
  {
    name: 'clean German statement from the expected bank',
    bytes: () => statementPdf(germanSpec),
    expectedBank: commerzbank.bankName,
    expected: {
      status: 'completed',
      risk_level: 'low',
      is_bank_statement: true,
      codes: ['EXPECTED_BANK_MATCH'],
    },
  },
  {
    name: 'German statement, another bank expected',
    bytes: () => statementPdf(germanSpec),
    expectedBank: dkb.bankName,
    expected: {
      status: 'completed',
      risk_level: 'medium',
      is_bank_statement: true,
      codes: ['EXPECTED_BANK_MISMATCH'],
    },
  },
  {
    name: 'one amount changed (other font, balances not updated)',
    bytes: () =>
      statementPdf({
        ...germanSpec,
        rows: germanRows().map((row, index) =>
          index === 2 ? { ...row, amount: '-7,43', otherFont: true } : row,
        ),
      }),
    expected: {
      status: 'completed',
      risk_level: 'high',
      is_bank_statement: true,
      codes: ['BALANCE_MISMATCH', 'RUNNING_BALANCE_BREAK', 'MIXED_FONTS_IN_AMOUNTS'],
      absent: ['BALANCES_RECONCILE'],
    },
  },
  {
    name: 'incremental edit after creation',
    bytes: async () =>
      appendIncrementalUpdate(
        await statementPdf(germanSpec),
        new Date('2025-03-15T10:00:00Z'),
        'Synthetic Statement Generator',
      ),
    expected: {
      status: 'completed',
      risk_level: 'medium',
      is_bank_statement: true,
      codes: ['INCREMENTAL_UPDATES', 'MODIFIED_AFTER_CREATION'],
      absent: ['SINGLE_REVISION'],
    },
  },
  {
    name: 'produced by an editing tool',
    bytes: () => statementPdf({ ...germanSpec, producer: 'iLovePDF', creator: 'Microsoft Word' }),
    expected: {
      status: 'completed',
      risk_level: 'medium',
      is_bank_statement: true,
      codes: ['EDITING_TOOL_PRODUCER'],
      absent: ['NO_EDITOR_METADATA'],
    },
  },
  {
    name: 'bank name of another bank',
    bytes: () => statementPdf({ ...germanSpec, bankName: dkb.bankName, bic: dkb.bic }),
    expected: {
      status: 'completed',
      risk_level: 'medium',
      is_bank_statement: true,
      codes: ['IBAN_BANK_MISMATCH'],
      absent: ['IBAN_MATCHES_REGISTRY'],
    },
  },
  {
    name: 'invalid IBAN',
    bytes: () => statementPdf({ ...germanSpec, iban: 'DE89 3704 0044 0532 0130 01' }),
    expected: {
      status: 'completed',
      risk_level: 'medium',
      is_bank_statement: true,
      codes: ['IBAN_INVALID'],
      absent: ['IBAN_VALID'],
    },
  },
  {
    name: 'broken arithmetic (closing balance)',
    bytes: () => statementPdf({ ...germanSpec, closing: '2.906,30' }),
    expected: {
      status: 'completed',
      risk_level: 'medium',
      is_bank_statement: true,
      codes: ['BALANCE_MISMATCH', 'RUNNING_BALANCES_CONSISTENT'],
      absent: ['BALANCES_RECONCILE'],
    },
  },
  {
    name: 'image statement (OCR)',
    bytes: () =>
      statementPng([
        ...headerLines(germanSpec),
        ...germanRows().map(
          (row) => `${row.date}  ${row.description}  ${row.amount}  ${row.balance}`,
        ),
        `Closing balance ${germanSpec.closing}`,
      ]),
    expected: {
      status: 'completed',
      risk_level: 'low',
      is_bank_statement: true,
      codes: ['IBAN_VALID'],
      iban: 'DE89370400440532013000',
    },
  },
  {
    name: 'not a statement',
    bytes: () =>
      textPdf([
        'Dear reader,',
        'this letter is a synthetic test document.',
        'It names no account and shows no balance.',
      ]),
    expected: {
      status: 'completed',
      risk_level: 'medium',
      is_bank_statement: false,
      codes: ['NOT_A_BANK_STATEMENT'],
    },
  },
  {
    name: 'corrupt PDF',
    bytes: async () => Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(4096, 0x5a)]),
    expected: { status: 'analysis_failed', reason: 'unreadable_document', refunded: false },
  },
  {
    name: 'truncated PDF',
    bytes: async () => {
      const whole = await statementPdf(germanSpec);
      return whole.slice(0, Math.floor(whole.length * 0.6));
    },
    expected: { status: 'analysis_failed', reason: 'unreadable_document', refunded: false },
  },
  {
    name: 'encrypted PDF',
    bytes: async () => encryptedPdf(await statementPdf(germanSpec)),
    expected: { status: 'analysis_failed', reason: 'encrypted_document', refunded: false },
  },
  {
    name: 'decompression bomb image',
    bytes: async () => bombPng(),
    expected: { status: 'analysis_failed', reason: 'image_too_large', refunded: false },
  },
];
