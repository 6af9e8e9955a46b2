import { at, checkDigit } from './weights.js';

/**
 * Method 87, "Methode A": the Bundesbank publishes this one as pseudocode (running the
 * helper variables C2, D2, A5 over positions 4-9 with a digit substitution and two result
 * tables). This is a transcription of that published algorithm.
 */
const table1 = [0, 4, 3, 2, 6] as const;
const table2 = [7, 1, 5, 9, 8] as const;

/** Digit substitution applied before each step: 0->5, 1->6, 5->10, 6->1. */
function substitute(digit: number): number {
  switch (digit) {
    case 0:
      return 5;
    case 1:
      return 6;
    case 5:
      return 10;
    case 6:
      return 1;
    default:
      return digit;
  }
}

/**
 * The published loop over positions 4-9 in local variables (c2, d2, a5 as in the pseudocode): one
 * step per digit, no state object, so a check allocates nothing.
 */
export function method87A(account: string): boolean {
  let position = 4;
  while (position < 10 && at(account, position) === 0) position++;
  let c2 = position % 2;
  let d2 = 0;
  let a5 = 0;
  for (; position < 10; position++) {
    const value = substitute(at(account, position));
    const big = value > 5;
    if (c2 === d2) {
      const bothZero = c2 === 0 && d2 === 0;
      if (big && bothZero) {
        c2 = 1;
        d2 = 1;
        a5 += 6 - (value - 6);
      } else if (big) {
        c2 = 0;
        d2 = 0;
        a5 += value;
      } else {
        c2 = bothZero ? 1 : 0;
        a5 += value;
      }
    } else if (big && c2 === 0) {
      c2 = 1;
      d2 = 0;
      a5 += -6 + (value - 6);
    } else if (big) {
      c2 = 0;
      d2 = 1;
      a5 -= value;
    } else {
      c2 = c2 === 0 ? 1 : 0;
      a5 -= value;
    }
  }
  // "DO WHILE A5 < 0 OR A5 > 4: add or subtract 5" brings A5 into 0..4.
  const index = ((a5 % 5) + 5) % 5;
  const expected = (d2 === 0 ? table1[index] : table2[index]) ?? -1;
  if (expected === checkDigit(account)) return true;
  if (at(account, 4) !== 0) return false;
  return (expected > 4 ? expected - 5 : expected + 5) === checkDigit(account);
}
