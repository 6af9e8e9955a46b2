/**
 * Reading amounts and dates as statements print them. Amounts become integer minor units (cents), so
 * balance arithmetic is exact; dates become ISO yyyy-mm-dd strings, which compare correctly as text.
 */

/** An amount with an optional sign, currency symbol, thousands separators and exactly two decimals. */
export const amountPattern = String.raw`[-−+]?(?:[€$£] ?)?(?:\d{1,3}(?:[,.']\d{3})+|\d+)[.,]\d{2}-?`;
const amountExact = new RegExp(`^${amountPattern}$`);

/** Minor units of a printed amount, or null when the text is not one. "1.234,56" and "1,234.56" both read 123456. */
export function parseAmount(text: string): number | null {
  const trimmed = text.trim();
  if (!amountExact.test(trimmed)) return null;
  const negative = /^[-−]/.test(trimmed) || trimmed.endsWith('-');
  const digits = trimmed.replace(/[^0-9.,']/g, '');
  const whole = digits.slice(0, -3).replace(/[.,']/g, '');
  const cents = Number(whole) * 100 + Number(digits.slice(-2));
  return negative ? -cents : cents;
}

export function formatMinor(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const absolute = Math.abs(minor);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
}

/** Dates: ISO (2025-01-31), dotted day first (31.01.2025), slashed (day first, or month first on US statements). */
export const datePattern = String.raw`\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}[./]\d{4}`;
const dateExact = new RegExp(`^(?:${datePattern})$`);

function iso(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1) return null; // 31.02. and the like
  return date.toISOString().slice(0, 10);
}

export function parseDate(text: string, monthFirst: boolean): string | null {
  const trimmed = text.trim();
  if (!dateExact.test(trimmed)) return null;
  if (trimmed.includes('-')) {
    const [year, month, day] = trimmed.split('-').map(Number) as [number, number, number];
    return iso(year, month, day);
  }
  const [a, b, year] = trimmed.split(/[./]/).map(Number) as [number, number, number];
  const slashed = trimmed.includes('/');
  return slashed && monthFirst ? iso(year, a, b) : iso(year, b, a);
}

export function daysBetween(startIso: string, endIso: string): number {
  return Math.round((Date.parse(endIso) - Date.parse(startIso)) / 86_400_000);
}
