import type { IbanVerdict } from '../../domain/iban/index.js';
import type { BankFields } from '../registry/bank-fields.js';

/** One row of a validation answer as the general path builds it (validate.ts) and the written answer encodes it. */
export type ValidationRow = {
  iban: string;
  valid: boolean;
  error?: string;
  message?: string;
  country_code: string | null;
  bank_code: string | null;
  national_check: IbanVerdict['nationalCheck'];
} & BankFields;
