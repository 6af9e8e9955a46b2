import {
  defineRule,
  type NationalCheckAt,
  type NationalCheckOutcome,
  type NationalRule,
} from './types.js';
import { replaceAt, twoDigits } from './bban-math.js';

/**
 * Clé RIB: the two-digit key of the French "relevé d'identité bancaire", used unchanged by Monaco
 * and the French overseas territories and, with the same arithmetic on an all-numeric BBAN, by
 * Tunisia, Mauritania and Djibouti. The key is 97 − (body × 100 mod 97), 01..97, where body is the
 * BBAN before the key read as a number (CFONB's 89·bank + 15·branch + 3·account form is the same
 * value for the French layout). Letters in the French account map to digits by the CFONB table.
 */

// CFONB table: A,J→1 B,K,S→2 C,L,T→3 D,M,U→4 E,N,V→5 F,O,W→6 G,P,X→7 H,Q,Y→8 I,R,Z→9
const letterDigits = '12345678912345678923456789';
const codeZero = 48; // '0'
const codeA = 65; // 'A'
const asciiSize = 128;
/** Char code → digit value (digits as themselves, letters by the CFONB table): one lookup per character. */
const ribValue: readonly number[] = Array.from({ length: asciiSize }, (_, code) => {
  if (code >= codeA && code < codeA + letterDigits.length)
    return letterDigits.charCodeAt(code - codeA) - codeZero;
  return code >= codeZero && code <= codeZero + 9 ? code - codeZero : 0;
});
const foldAbove = 1e13; // keeps r*100+99 an exact double (see bban-math.ts)

/** text[start, end) read through the CFONB table as a number mod 97, two characters per step. */
function ribBodyRemainder(text: string, start: number, end: number): number {
  let remainder = 0;
  let index = start;
  for (; index + 1 < end; index += 2) {
    remainder =
      remainder * 100 +
      (ribValue[text.charCodeAt(index)] ?? 0) * 10 +
      (ribValue[text.charCodeAt(index + 1)] ?? 0);
    if (remainder > foldAbove) remainder %= 97;
  }
  if (index < end) remainder = remainder * 10 + (ribValue[text.charCodeAt(index)] ?? 0);
  return remainder % 97;
}

/** The key for the BBAN text[start..] whose last two positions hold it. */
export function ribKeyOf(text: string, start = 0): number {
  return 97 - ((ribBodyRemainder(text, start, text.length - 2) * 100) % 97);
}

const checkAt: NationalCheckAt = (text, start): NationalCheckOutcome => {
  const body = text.length - 2;
  const key = (text.charCodeAt(body) - codeZero) * 10 + (text.charCodeAt(body + 1) - codeZero);
  return key === ribKeyOf(text, start) ? 'passed' : 'failed';
};

export function ribKeyRule(countryCode: string, layout: string, source: string): NationalRule {
  return defineRule({
    countryCode,
    rule: `Clé RIB: 97 − (bank‖branch‖account × 100 mod 97), letters by the CFONB table (${layout})`,
    source,
    checkAt,
    complete(bban, rng): string {
      void rng; // the key is a pure function of the other positions
      return replaceAt(bban, bban.length - 2, twoDigits(ribKeyOf(bban)));
    },
  });
}
