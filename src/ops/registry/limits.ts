/**
 * Bounds of the bank-intelligence and registry endpoints, named once with their reasons (the shared
 * bounds of the service live in src/limits.ts; these belong to the registry operations only).
 */
import { assert } from '../../assert.js';
import { limits } from '../../limits.js';

export const registryLimits = {
  /** Spec "Bounds": BankIdentifier value at most 128 characters ... */
  identifierValueCharsMax: 128,
  /** ... and type at most 40. */
  identifierTypeCharsMax: 40,
  /** Spec: lookup identifiers up to 1000 ... */
  lookupIdentifiersMax: 1_000,
  /** ... and up to 25 matches per identifier. */
  matchesPerIdentifierMax: 25,
  /** Spec: search query 2 to 120 characters. */
  searchQueryCharsMin: 2,
  searchQueryCharsMax: 120,
  /** Spec: search limit 1 to 1000, default 25. */
  searchLimitMax: 1_000,
  searchLimitDefault: 25,
  /** Spec: changes limit 1 to 1000, default 100. */
  changesLimitMax: 1_000,
  changesLimitDefault: 100,
  /** Source ids, record types and statuses are short words; 64 leaves room and refuses junk early. */
  filterCharsMax: 64,
  /** Record keys: the longest real one is a GLEIF relationship key (two LEIs and a type, about 80 characters). */
  recordKeyCharsMax: 128,
  /** Watch ids are 'wl_' + 20 hex characters; anything much longer is not one. */
  watchIdCharsMax: 64,
  /** Spec: export queries Business 250, Enterprise 1,000. */
  exportQueriesBusiness: 250,
  exportQueriesEnterprise: 1_000,
  /** OUR DECISION (spec silent on plans below Business, which do have an export allowance): 100 queries. */
  exportQueriesBelowBusiness: 100,
  /** record_id is an integer of at least 1 (spec); ids are assigned from 1 up. */
  recordIdMin: 1,
} as const;

/** JSON keys and punctuation around one identifier: {"value":"","type":""}, plus a comma. */
const identifierJsonOverheadBytes = 32;
assert(
  registryLimits.lookupIdentifiersMax * (registryLimits.identifierValueCharsMax + registryLimits.identifierTypeCharsMax + identifierJsonOverheadBytes) <=
    limits.httpJsonBodyBytesMax,
  'a full lookup or export request (1,000 identifiers of the longest allowed values) fits the JSON body cap',
);
