import {
  defineRule,
  type NationalCheckAt,
  type NationalCheckOutcome,
  type NationalRule,
} from './types.js';
import { checkGermanAccount, generateGermanAccount } from './de/index.js';

/**
 * DE BBAN: bank code (BLZ) 8n, account 10n. The check method depends on the bank: the registry
 * answers it (Bundesbank Bankleitzahlendatei, Prüfzifferberechnungsmethode). Unknown bank or a
 * method the de/ module does not implement yet → 'not_checked', never 'failed'.
 */
const blzLength = 8;

// The registry is asked with the BLZ as a string, and the methods read a 10-digit account string.
const checkAt: NationalCheckAt = (text, start, context): NationalCheckOutcome => {
  const blz = text.slice(start, start + blzLength);
  const method = context.accountCheckMethod('DE', blz);
  if (method === undefined) return 'not_checked';
  return checkGermanAccount(method, blz, text.slice(start + blzLength));
};

export const germanyRule: NationalRule = defineRule({
  countryCode: 'DE',
  rule: 'Bundesbank account check-digit method of the bank code (00..E4) over the 10-digit account',
  source:
    'Deutsche Bundesbank: Prüfzifferberechnungsmethoden (methods per BLZ in the Bankleitzahlendatei)',
  checkAt,
  complete(bban, rng, context): string {
    const blz = bban.slice(0, blzLength);
    const method = context.accountCheckMethod('DE', blz);
    if (method === undefined) return bban;
    const account = generateGermanAccount(method, blz, rng);
    return account === null ? bban : blz + account;
  },
});
