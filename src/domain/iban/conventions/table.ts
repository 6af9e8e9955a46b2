import { gbSortCodePrefixes } from './gb-sort-codes.js';
import {
  bcbCircular3625,
  debanIbanGuidelines,
  payUkSortCodes,
  cbsSeychellesRupee,
  ecbsMauritius,
  jsBankIbanFormat,
  sortCodeAllocation,
  swiftRegistryEntry,
  tcmbIbanAmendment2012,
  tcmbIbanCommunique,
} from './sources.js';
import type { ConventionRule } from './types.js';

const digits = '0123456789';

/**
 * The conventions that come from a national document or are a stated decision, by country. Every other `c`
 * position follows the registry's example (index.ts derives those rules); a country absent here and without `c`
 * positions has registry classes that are already exact.
 */
export const nationalRules: ReadonlyMap<string, readonly ConventionRule[]> = new Map([
  [
    'BR',
    [
      {
        field: 'account type',
        from: 24,
        to: 24,
        draw: { kind: 'alphabet', alphabet: 'CP' },
        rule: 'C (conta corrente) or P (conta poupança), as secondary descriptions of the guidelines give them; the registry example ends C1',
        basis: 'national',
        sources: [bcbCircular3625, debanIbanGuidelines],
      },
      {
        field: 'account holder',
        from: 25,
        to: 25,
        draw: { kind: 'alphabet', alphabet: '12' },
        rule: '1 or 2 (the registry example has 1; the values as secondary descriptions of the guidelines give them)',
        basis: 'national',
        sources: [bcbCircular3625, debanIbanGuidelines],
      },
    ],
  ],
  [
    'FR',
    [
      {
        field: 'account number (numéro de compte)',
        from: 11,
        to: 21,
        draw: { kind: 'alphabet', alphabet: digits },
        rule:
          'digits only. The RIB allows 11 letters or digits (the clé RIB converts letters, and the registry ' +
          'example carries an M); generation draws digits as a decision, and /validate still accepts letters',
        basis: 'decision',
        sources: [swiftRegistryEntry('FR')],
      },
    ],
  ],
  [
    'GB',
    [
      {
        field: 'sort code',
        from: 5,
        to: 10,
        draw: { kind: 'bank-prefix', prefixLength: 2, prefixesByBank: gbSortCodePrefixes },
        rule:
          "first two digits from the bank's allocation (BARC/BUKB 20, HBUK/MIDL 40, LOYD 30, NWBK 60, RBOS 83 or 16, " +
          'ABBY 09, HLFX 11, NAIA 07, CPBK 08, COUT 18, CLYD 82, TSBS 77 or 87, DABA 95); other bank codes get a ' +
          'prefix none of these holds; the last four digits are drawn (Pay.UK’s branch directory is licensed, so a ' +
          'sort code is in the bank’s range, not necessarily an existing branch)',
        basis: 'national',
        sources: [payUkSortCodes, sortCodeAllocation, swiftRegistryEntry('GB')],
      },
    ],
  ],
  [
    'MU',
    [
      {
        field: 'currency',
        from: 24,
        to: 26,
        draw: { kind: 'one-of', values: ['MUR', 'USD', 'EUR'], weights: [8, 1, 1] },
        rule:
          'ISO 4217 code of the account currency: MUR (the example’s, the national currency), USD or EUR; ' +
          'weights 8:1:1 are ibanqa’s choice',
        basis: 'registry-example',
        sources: [ecbsMauritius, swiftRegistryEntry('MU')],
      },
    ],
  ],
  [
    'PK',
    [
      {
        field: 'account number',
        from: 5,
        to: 20,
        draw: { kind: 'alphabet', alphabet: digits },
        rule: '16 digits (the registry allows letters)',
        basis: 'national',
        sources: [jsBankIbanFormat, swiftRegistryEntry('PK')],
      },
    ],
  ],
  [
    'SC',
    [
      {
        field: 'currency',
        from: 25,
        to: 27,
        draw: { kind: 'one-of', values: ['SCR', 'USD'], weights: [4, 1] },
        rule:
          'ISO 4217 code of the account currency: SCR (the national currency) or USD (the registry example’s); ' +
          'weights 4:1 are ibanqa’s choice',
        basis: 'registry-example',
        sources: [cbsSeychellesRupee, swiftRegistryEntry('SC')],
      },
    ],
  ],
  [
    'TR',
    [
      {
        field: 'reserve digit (rezerv alan)',
        from: 6,
        to: 6,
        draw: { kind: 'alphabet', alphabet: '0' },
        rule: '0',
        basis: 'national',
        sources: [tcmbIbanCommunique, tcmbIbanAmendment2012],
      },
    ],
  ],
]);
