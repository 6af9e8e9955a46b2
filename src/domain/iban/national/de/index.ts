import { assert, unreachable } from '../../../../assert.js';
import { type Rng, rngBelow, rngDigits } from '../../../rng.js';
import { bankCodeDependentMethods, germanMethodTable } from './method-table.js';

/**
 * Deutsche Bundesbank account check-digit methods (Prüfzifferberechnungsmethoden 00..E4).
 * The method for a bank code comes from the Bundesbank bank-code file (positions 151-152).
 */
export type GermanCheckResult = 'passed' | 'failed' | 'not_checked';

const accountLength = 10;
const bankCodePattern = /^\d{8}$/;
const codeZero = 48; // '0'

/** 1 to 10 ASCII digits, tested by char code (a regular expression here cost more than most methods). */
function isAccountNumber(account: string): boolean {
  if (account.length === 0 || account.length > accountLength) return false;
  for (let index = 0; index < account.length; index++) {
    const digit = account.charCodeAt(index) - codeZero;
    if (digit < 0 || digit > 9) return false;
  }
  return true;
}

/**
 * Bound on random draws per generated account. Most methods accept about 1 in 10 random
 * accounts and the strictest shaped draws (ESER method 52: 1 shape in 4 × 1 in 11) about 1 in 44,
 * so 1,000 misses in a row happen with probability below 1e-9: exhausting it is a bug.
 */
const maxDraws = 1000;
/**
 * Draws vary the number of leading zeros (0..3) because many methods treat 7-, 8-, 9- and
 * 10-digit accounts differently (ESER 52/53, 63, 66, 68, 75, 89, B9, C0, C5, …).
 */
const maxLeadingZeros = 3;
/** Methods whose accounts always start with fixed digits (method 54: positions 1-2 are 49). */
const fixedPrefixes: ReadonlyMap<string, string> = new Map([['54', '49']]);

/** `account` is the 10-digit Kontonummer (left-padded with zeros), `bankCode` the 8-digit BLZ. */
export function checkGermanAccount(
  method: string,
  bankCode: string,
  account: string,
): GermanCheckResult {
  const check = germanMethodTable.get(method);
  if (check === undefined) return 'not_checked';
  if (!isAccountNumber(account)) return 'failed';
  const verdict = check(
    account.length === accountLength ? account : account.padStart(accountLength, '0'),
    bankCode,
  );
  if (verdict === 'not_checked') return 'not_checked';
  return verdict ? 'passed' : 'failed';
}

function drawAccount(method: string, rng: Rng): string {
  const prefix = fixedPrefixes.get(method);
  if (prefix !== undefined) return prefix + rngDigits(rng, accountLength - prefix.length);
  const zeros = rngBelow(rng, maxLeadingZeros + 1);
  return '0'.repeat(zeros) + rngDigits(rng, accountLength - zeros);
}

/**
 * A 10-digit account that passes `method` for `bankCode`, or null when the method is not
 * implemented (or, for the ESER methods 52, 53, B6, C0, when `bankCode` is not 8 digits).
 */
export function generateGermanAccount(method: string, bankCode: string, rng: Rng): string | null {
  if (!germanMethodTable.has(method)) return null;
  if (bankCodeDependentMethods.has(method) && !bankCodePattern.test(bankCode)) return null;
  for (let draw = 0; draw < maxDraws; draw++) {
    const account = drawAccount(method, rng);
    if (checkGermanAccount(method, bankCode, account) !== 'passed') continue;
    assert(account.length === accountLength, 'generated accounts have 10 digits');
    return account;
  }
  return unreachable(`method ${method}: no passing account in ${maxDraws} draws`);
}

/** Method codes this module implements, sorted (00..99 without 12, then A0..E4). */
export const germanMethods: readonly string[] = [...germanMethodTable.keys()].sort();
