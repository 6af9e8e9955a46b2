import { rngBelow, rngPick, type Rng } from '../rng.js';

/**
 * Card numbers: only the test numbers that payment processors publish for sandboxes (Stripe, Adyen and
 * others list these same PANs); every one passes Luhn and none is a live card. Shown masked: the network's
 * first digits are needed to recognise the type, the last four to tell rows apart; the CVV is never shown.
 */
const testCards = [
  { type: 'visa', number: '4242424242424242' },
  { type: 'visa', number: '4111111111111111' },
  { type: 'visa', number: '4000056655665556' },
  { type: 'mastercard', number: '5555555555554444' },
  { type: 'mastercard', number: '2223003122003222' },
  { type: 'mastercard', number: '5200828282828210' },
  { type: 'amex', number: '378282246310005' },
  { type: 'amex', number: '371449635398431' },
  { type: 'discover', number: '6011111111111117' },
  { type: 'jcb', number: '3566002020360505' },
] as const;

export const publishedTestCardNumbers: readonly string[] = testCards.map((card) => card.number);

export interface MaskedCard {
  readonly type: string;
  /** First four and last four digits, the rest as asterisks. */
  readonly number: string;
  /** MM/YY, one to five years after the reference date. */
  readonly expiry: string;
  readonly cvv: string;
}

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function maskPan(pan: string): string {
  return pan.slice(0, 4) + '*'.repeat(pan.length - 8) + pan.slice(-4);
}

export function syntheticCard(
  rng: Rng,
  referenceYear: number,
): MaskedCard & { readonly pan: string } {
  const card = rngPick(rng, testCards);
  const month = 1 + rngBelow(rng, 12);
  const year = (referenceYear + 1 + rngBelow(rng, 5)) % 100;
  return {
    type: card.type,
    pan: card.number,
    number: maskPan(card.number),
    expiry: `${String(month).padStart(2, '0')}/${String(year).padStart(2, '0')}`,
    cvv: card.type === 'amex' ? '****' : '***',
  };
}
