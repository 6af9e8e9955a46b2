/** US ABA routing numbers: pure domain (no I/O, randomness from an Rng argument). */
export {
  abaCheckDigit,
  abaChecksumValid,
  abaWeights,
  checkRoutingList,
  checkRoutingNumber,
  routingErrors,
  routingNumberLength,
  type RoutingError,
  type RoutingVerdict,
} from './aba.js';
export {
  assignedPrefixes,
  describePrefix,
  federalReserveBankRoutingNumbers,
  federalReserveDistrictCities,
  unassignedPrefixes,
  type PrefixKind,
  type RoutingPrefix,
} from './prefixes.js';
export {
  defaultGenerationPrefixes,
  generateRoutingNumbers,
  generateRoutingRow,
  resolveGenerationPrefixes,
  syntheticRoutingNote,
  type GenerateRoutingOptions,
  type NumberSet,
  type RoutingRow,
} from './generate.js';
export { routingTestCases, type RoutingCaseCategory, type RoutingTestCase } from './test-cases.js';
