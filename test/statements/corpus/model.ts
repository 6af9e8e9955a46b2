/**
 * The statements of the corpus as data: who, which account, which period, which bookings. Every holder and
 * address is synthetic (faker's locale data); amounts and dates are written by the locale's own formatter
 * (Intl, ICU's CLDR data), so what the review must read back is known independently of its parser.
 */
import {
  fakerDE,
  fakerDE_AT,
  fakerDE_CH,
  fakerEN_GB,
  fakerEN_US,
  fakerES,
  fakerFR,
  fakerIT,
  fakerNL,
  fakerPL,
  type Faker,
} from '@faker-js/faker';
import { isValidIBAN } from 'ibantools';

export type Language = 'en' | 'de' | 'fr' | 'nl' | 'es' | 'it' | 'pl';

export interface Locale {
  readonly country: string;
  readonly language: Language;
  /** BCP 47 tag for Intl. */
  readonly tag: string;
  readonly currency: string;
  readonly faker: Faker;
  readonly dateStyle: 'dmy.' | 'dmy-' | 'dmy/' | 'mdy/' | 'iso';
  /** The ISO 13616 registry's example IBAN of the country (bank codes of real banks, no bank name printed). */
  readonly iban?: string;
  readonly descriptions: readonly string[];
}

const locales = {
  DE: {
    country: 'DE',
    language: 'de',
    tag: 'de-DE',
    currency: 'EUR',
    faker: fakerDE,
    dateStyle: 'dmy.',
    iban: 'DE89370400440532013000',
    descriptions: [
      'Gehalt',
      'Miete',
      'Lebensmittel Einkauf',
      'Stromabschlag',
      'Kartenzahlung Tankstelle',
      'Erstattung Versicherung',
      'Dauerauftrag Sparplan',
      'Lastschrift Mobilfunk',
      'Bargeldauszahlung',
      'Gutschrift Rücküberweisung',
    ],
  },
  AT: {
    country: 'AT',
    language: 'de',
    tag: 'de-AT',
    currency: 'EUR',
    faker: fakerDE_AT,
    dateStyle: 'dmy.',
    iban: 'AT611904300234573201',
    descriptions: [
      'Gehalt',
      'Miete',
      'Lebensmittel',
      'Energie Abschlag',
      'Bankomat Behebung',
      'Gutschrift',
      'Versicherung',
      'Mobilfunk',
      'Apotheke',
      'Zinsen',
    ],
  },
  CH: {
    country: 'CH',
    language: 'de',
    tag: 'de-CH',
    currency: 'CHF',
    faker: fakerDE_CH,
    dateStyle: 'dmy.',
    iban: 'CH9300762011623852957',
    descriptions: [
      'Lohn',
      'Miete',
      'Einkauf Lebensmittel',
      'Krankenkasse',
      'Bancomat Bezug',
      'Gutschrift',
      'Steuern Rate',
      'Mobilfunk',
      'ÖV Abonnement',
      'Rückerstattung',
    ],
  },
  FR: {
    country: 'FR',
    language: 'fr',
    tag: 'fr-FR',
    currency: 'EUR',
    faker: fakerFR,
    dateStyle: 'dmy/',
    iban: 'FR1420041010050500013M02606',
    descriptions: [
      'Virement salaire',
      'Loyer',
      'Carte supermarché',
      'Prélèvement électricité',
      'Retrait DAB',
      'Remboursement mutuelle',
      'Abonnement téléphone',
      'Virement reçu',
      'Pharmacie',
      'Cotisation carte',
    ],
  },
  NL: {
    country: 'NL',
    language: 'nl',
    tag: 'nl-NL',
    currency: 'EUR',
    faker: fakerNL,
    dateStyle: 'dmy-',
    iban: 'NL91ABNA0417164300',
    descriptions: [
      'Salaris',
      'Huur',
      'Boodschappen',
      'Energie termijn',
      'Geldautomaat',
      'Zorgverzekering',
      'Teruggave',
      'Telefoonabonnement',
      'Overboeking ontvangen',
      'Apotheek',
    ],
  },
  ES: {
    country: 'ES',
    language: 'es',
    tag: 'es-ES',
    currency: 'EUR',
    faker: fakerES,
    dateStyle: 'dmy/',
    iban: 'ES9121000418450200051332',
    descriptions: [
      'Nómina',
      'Alquiler',
      'Compra supermercado',
      'Recibo luz',
      'Reintegro cajero',
      'Transferencia recibida',
      'Recibo seguro',
      'Recibo telefonía',
      'Farmacia',
      'Devolución',
    ],
  },
  IT: {
    country: 'IT',
    language: 'it',
    tag: 'it-IT',
    currency: 'EUR',
    faker: fakerIT,
    dateStyle: 'dmy/',
    iban: 'IT60X0542811101000000123456',
    descriptions: [
      'Stipendio',
      'Affitto',
      'Spesa supermercato',
      'Bolletta luce',
      'Prelievo bancomat',
      'Bonifico ricevuto',
      'Assicurazione',
      'Telefonia',
      'Farmacia',
      'Rimborso',
    ],
  },
  PL: {
    country: 'PL',
    language: 'pl',
    tag: 'pl-PL',
    currency: 'PLN',
    faker: fakerPL,
    dateStyle: 'dmy.',
    iban: 'PL61109010140000071219812874',
    descriptions: [
      'Wynagrodzenie',
      'Czynsz',
      'Zakupy spożywcze',
      'Prąd',
      'Wypłata z bankomatu',
      'Przelew przychodzący',
      'Ubezpieczenie',
      'Telefon',
      'Apteka',
      'Zwrot',
    ],
  },
  GB: {
    country: 'GB',
    language: 'en',
    tag: 'en-GB',
    currency: 'GBP',
    faker: fakerEN_GB,
    dateStyle: 'dmy/',
    iban: 'GB29NWBK60161331926819',
    descriptions: [
      'Salary',
      'Rent',
      'Card payment grocery',
      'Direct debit energy',
      'Cash withdrawal',
      'Faster payment received',
      'Insurance',
      'Mobile phone',
      'Pharmacy',
      'Refund',
    ],
  },
  US: {
    country: 'US',
    language: 'en',
    tag: 'en-US',
    currency: 'USD',
    faker: fakerEN_US,
    dateStyle: 'mdy/',
    descriptions: [
      'Payroll deposit',
      'Rent payment',
      'Debit card grocery',
      'Electric utility',
      'ATM withdrawal',
      'Mobile deposit',
      'Insurance premium',
      'Phone bill',
      'Pharmacy',
      'Refund',
    ],
  },
} satisfies Record<string, Locale>;

export type CountryCode = keyof typeof locales;
export const localeOf = (country: CountryCode): Locale => locales[country];

for (const locale of Object.values(locales) as Locale[])
  if (locale.iban !== undefined && !isValidIBAN(locale.iban))
    throw new Error(`ibantools rejects ${locale.iban}`);

export interface Booking {
  /** ISO date. */
  readonly date: string;
  readonly text: string;
  /** Minor units, negative for a debit. */
  readonly amount: number;
}

export interface Statement {
  readonly locale: Locale;
  readonly holder: string;
  readonly street: string;
  readonly town: string;
  readonly iban: string | null;
  readonly accountNumber: string | null;
  readonly routingNumber: string | null;
  readonly period: { readonly start: string; readonly end: string };
  readonly statementDate: string;
  readonly opening: number;
  readonly bookings: readonly Booking[];
}

/** mulberry32: a small seeded generator, so the corpus is the same on every run. */
export function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const iso = (date: Date) => date.toISOString().slice(0, 10);

/** ABA 3-7-1 check digit, written here independently of src/domain/routing. */
export function abaWithCheckDigit(first8: string): string {
  const weights = [3, 7, 1, 3, 7, 1, 3, 7];
  const sum = [...first8].reduce(
    (total, digit, index) => total + Number(digit) * (weights[index] as number),
    0,
  );
  return `${first8}${(10 - (sum % 10)) % 10}`;
}

function bookingsOf(locale: Locale, random: () => number, start: Date, count: number): Booking[] {
  const days = Array.from({ length: count }, () => 1 + Math.floor(random() * 27)).sort(
    (a, b) => a - b,
  );
  return days.map((day, index) => {
    const text = locale.descriptions[index % locale.descriptions.length] as string;
    const credit = index === 0 || random() < 0.2;
    // Odd cents keep the amounts from looking invented (the review flags mostly-round amounts).
    const size = credit
      ? 150_000 + Math.floor(random() * 250_000)
      : 1_000 + Math.floor(random() * 60_000);
    const date = new Date(start);
    date.setUTCDate(day);
    return { date: iso(date), text, amount: credit ? size + 17 : -(size + 3) };
  });
}

export function statementOf(country: CountryCode, seed: number, bookings = 8): Statement {
  const locale = localeOf(country);
  const random = rng(seed);
  locale.faker.seed(seed);
  const month = Math.floor(random() * 6); // January to June 2024
  const start = new Date(Date.UTC(2024, month, 1));
  const end = new Date(Date.UTC(2024, month + 1, 0));
  const issued = new Date(Date.UTC(2024, month + 1, 2));
  const person = locale.faker.person;
  return {
    locale,
    holder: `${person.firstName()} ${person.lastName()}`,
    street: locale.faker.location.streetAddress(),
    town: `${locale.faker.location.zipCode()} ${locale.faker.location.city()}`,
    iban: locale.iban ?? null,
    accountNumber:
      country === 'US' ? String(100_000_000 + Math.floor(random() * 800_000_000)) + '0417' : null,
    routingNumber:
      country === 'US'
        ? abaWithCheckDigit(
            `0${1 + Math.floor(random() * 9)}${String(Math.floor(random() * 1e6)).padStart(6, '0')}`,
          )
        : null,
    period: { start: iso(start), end: iso(end) },
    statementDate: iso(issued),
    opening: 50_000 + Math.floor(random() * 500_000),
    bookings: bookingsOf(locale, random, start, bookings),
  };
}

export const closingOf = (statement: Statement) =>
  statement.bookings.reduce((sum, booking) => sum + booking.amount, statement.opening);

/** The amount as the locale writes it, two decimals, sign from Intl. */
export function money(
  locale: Locale,
  minor: number,
  options: { sign?: 'auto' | 'never' } = {},
): string {
  return new Intl.NumberFormat(locale.tag, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    signDisplay: options.sign ?? 'auto',
  }).format(minor / 100);
}

export function dateText(locale: Locale, isoDate: string): string {
  const [year, month, day] = isoDate.split('-') as [string, string, string];
  switch (locale.dateStyle) {
    case 'dmy.':
      return `${day}.${month}.${year}`;
    case 'dmy-':
      return `${day}-${month}-${year}`;
    case 'dmy/':
      return `${day}/${month}/${year}`;
    case 'mdy/':
      return `${month}/${day}/${year}`;
    case 'iso':
      return isoDate;
  }
}
