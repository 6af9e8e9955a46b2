/**
 * Amount and currency rules of the scenario request: decimal text, euro only (SEPA), at most the currency's
 * minor units, and the SCT maximum where it is sourced (paths.ts).
 */
import type { PaymentPath } from './paths.js';
import { sctMaxCents } from './paths.js';

export type AmountCheck =
  | { readonly ok: true; readonly cents: bigint; readonly text: string }
  | { readonly ok: false; readonly reason: string };

/** ISO 4217 codes known to the runtime (ICU/CLDR), so an unknown code and a non-euro code get different answers. */
const knownCurrencies: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

export function currencyProblem(currency: string): string | undefined {
  if (!/^[A-Z]{3}$/.test(currency) || !knownCurrencies.has(currency))
    return `unknown currency ${JSON.stringify(currency)}: an ISO 4217 code is expected`;
  if (currency !== 'EUR')
    return `SEPA schemes carry euro only: currency must be EUR, got ${currency}`;
  return undefined;
}

/** Euro minor units: 2. */
const euroDecimals = 2;

export function checkAmount(text: string, path: PaymentPath): AmountCheck {
  const match = /^(0|[1-9]\d{0,17})(?:\.(\d+))?$/.exec(text);
  if (match === null)
    return {
      ok: false,
      reason: `amount must be decimal text such as "125.50", got ${JSON.stringify(text)}`,
    };
  const fraction = match[2] ?? '';
  if (fraction.length > euroDecimals)
    return { ok: false, reason: `amount has ${fraction.length} decimals; EUR has ${euroDecimals}` };
  const cents = BigInt(match[1] as string) * 100n + BigInt(fraction.padEnd(euroDecimals, '0'));
  if (cents === 0n) return { ok: false, reason: 'amount must be at least 0.01' };
  if (path === 'SCT' && cents > sctMaxCents)
    return {
      ok: false,
      reason: 'amount exceeds EUR 999,999,999.99, the SCT maximum per credit transfer',
    };
  return { ok: true, cents, text: formatCents(cents) };
}

export function formatCents(cents: bigint): string {
  const whole = cents / 100n;
  const rest = (cents % 100n).toString().padStart(2, '0');
  return `${whole}.${rest}`;
}
