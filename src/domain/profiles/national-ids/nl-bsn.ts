import { rngBelow, type Rng } from '../../rng.js';
import { digitsOnly, type IdScheme } from './types.js';

/** The eleven-test: 9d1 + 8d2 + ... + 2d8 - d9 is divisible by 11 (Logius, BSN specification). */
function elevenTest(digits: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += (9 - i) * (digits[i] as number);
  return sum - (digits[8] as number);
}

/** Dutch burgerservicenummer: nine digits passing the eleven-test. Synthetic draws retry until one passes. */
export const nlBsn: IdScheme = {
  id: 'nl_bsn',
  name: 'Burgerservicenummer (BSN)',
  source: 'Logius: eleven-test (elfproef)',
  generate(_subject, rng: Rng) {
    for (;;) {
      const digits = [1 + rngBelow(rng, 9)];
      for (let i = 1; i < 8; i++) digits.push(rngBelow(rng, 10));
      let partial = 0;
      for (let i = 0; i < 8; i++) partial += (9 - i) * (digits[i] as number);
      const last = partial % 11;
      if (last <= 9) return digits.join('') + String(last);
    }
  },
  validate(value) {
    if (!/^\d{9}$/.test(value) || value === '000000000') return false;
    return elevenTest(digitsOnly(value)) % 11 === 0;
  },
  agrees: () => true,
};
