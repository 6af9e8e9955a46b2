export {
  bbanKinds,
  bbanOffset,
  countryFormatOf,
  countryFormats,
  ibanLengthMax,
  parseBbanSpec,
  type BbanPart,
  type CharKind,
  type CountryFormat,
  type Span,
} from './countries.js';
export { countryKey, resolveCountry } from './country-lookup.js';
export { ibanCheckDigits, ibanMod97, mod97Continue } from './mod97.js';
export {
  describeCharacter,
  formatIbanPrint,
  normalizeIbanInput,
  scanIbanInput,
} from './normalize.js';
export { validateIban, type IbanVerdict, type ValidationReason } from './validate.js';
export {
  bankCodeKey,
  bankCodeSpanOf,
  countryIndexOf,
  ElectronicScan,
  nationalOutcomeOf,
  scanElectronic,
} from './electronic-scan.js';
export {
  bankCodeFits,
  generateIban,
  spanSpec,
  type GenerateOptions,
  type GeneratedIban,
} from './generate.js';
export { calculateIban, type IbanComponents } from './calculate.js';
export { buildTestCases, type TestCase, type TestCaseCategory } from './test-cases.js';
