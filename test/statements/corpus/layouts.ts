/**
 * Page layouts modelled on how banks lay statements out: a letterhead, the holder's address block or a
 * labelled holder, the account, the period, an opening balance, a booking table (one signed amount column,
 * debit and credit columns, Soll/Haben markers, with or without a running balance), carried-forward lines on
 * multi-page statements and the closing balance. No bank's name, logo or customer data is reproduced.
 */
import {
  abaWithCheckDigit,
  closingOf,
  dateText,
  money,
  type Booking,
  type Statement,
} from './model.js';

export interface Cell {
  readonly x: number;
  readonly text: string;
  readonly align?: 'left' | 'right';
  /** Drawn in another font (an edited figure). */
  readonly other?: boolean;
}
export type Line = readonly Cell[];
export type Page = readonly Line[];

export type Variant =
  | 'clean'
  | 'arithmetic'
  | 'outside'
  | 'edited'
  | 'incremental'
  | 'bad_iban'
  | 'bad_routing'
  | 'bad_routing_prefix'
  | 'multipage'
  | 'carried';

type Columns = 'signed' | 'signed_balance' | 'debit_credit' | 'debit_credit_balance' | 'soll_haben';

export interface Layout {
  readonly id: string;
  readonly columns: Columns;
  readonly valueDate: boolean;
  /** Header lines: statement, holder and account; the period and opening balance follow. */
  readonly head: (s: Statement, iban: string | null, routing: string | null) => Line[];
  readonly tableHeader: readonly string[];
  readonly opening: (s: Statement, amount: string) => Line;
  readonly closing: (s: Statement, amount: string) => Line;
  readonly carried: (amount: string) => Line;
  readonly brought: (amount: string, page: number) => Line;
  readonly footer: string;
}

const left = (x: number, text: string): Cell => ({ x, text });
const right = (x: number, text: string, other = false): Cell => ({
  x,
  text,
  align: 'right',
  other,
});
const line = (...cells: Cell[]): Line => cells;
const text = (value: string): Line => [left(40, value)];

/** What a variant changes in what is printed. */
export interface Printed {
  readonly bookings: readonly Booking[];
  /** Index of the booking whose printed amount was edited (true amount in the balances). */
  readonly edited: number | null;
  readonly closing: number;
  readonly iban: string | null;
  readonly routing: string | null;
  readonly rowsPerPage: number;
  readonly carriedOffset: number;
}

const bumpLast = (value: string) => value.slice(0, -1) + String((Number(value.slice(-1)) + 1) % 10);

/**
 * The printed routing number: a wrong check digit, or the prefix 50, which the Federal Reserve assigns to no
 * district, thrift or electronic range (with a correct check digit, so only the prefix is wrong).
 */
function routingOf(routing: string | null, variant: Variant): string | null {
  if (routing === null) return null;
  if (variant === 'bad_routing') return bumpLast(routing);
  if (variant === 'bad_routing_prefix') return abaWithCheckDigit(`50${routing.slice(2, 8)}`);
  return routing;
}

export function printedOf(s: Statement, variant: Variant): Printed {
  const bookings = [...s.bookings];
  if (variant === 'outside') {
    const last = bookings[bookings.length - 1] as Booking;
    const next = new Date(`${s.period.end}T00:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 3);
    bookings[bookings.length - 1] = { ...last, date: next.toISOString().slice(0, 10) };
  }
  return {
    bookings,
    edited: variant === 'edited' ? bookings.findIndex((booking) => booking.amount < 0) : null,
    closing: closingOf(s) + (variant === 'arithmetic' ? 100_000 : 0),
    iban: s.iban === null ? null : variant === 'bad_iban' ? bumpLast(s.iban) : s.iban,
    routing: routingOf(s.routingNumber, variant),
    rowsPerPage: variant === 'multipage' || variant === 'carried' ? 5 : 40,
    carriedOffset: variant === 'carried' ? 10_000 : 0,
  };
}

/** The edited figure: 100.00 more debit printed than booked. */
const EDIT = -10_000;

function amountCells(
  layout: Layout,
  s: Statement,
  booking: Booking,
  balance: number,
  edited: boolean,
): Cell[] {
  const shown = booking.amount + (edited ? EDIT : 0);
  const l = s.locale;
  switch (layout.columns) {
    case 'signed':
      return [right(470, money(l, shown), edited)];
    case 'signed_balance':
      return [right(470, money(l, shown), edited), right(555, money(l, balance))];
    case 'soll_haben':
      return [right(470, money(l, Math.abs(shown)), edited), left(478, shown < 0 ? 'S' : 'H')];
    case 'debit_credit':
    case 'debit_credit_balance': {
      const cell = right(shown < 0 ? 420 : 490, money(l, Math.abs(shown)), edited);
      return layout.columns === 'debit_credit' ? [cell] : [cell, right(555, money(l, balance))];
    }
  }
}

function tableHeaderLine(layout: Layout): Line {
  const labels = layout.tableHeader;
  const firstAmount = layout.valueDate ? 3 : 2;
  const positions: Record<Columns, number[]> = {
    signed: [470],
    signed_balance: [470, 555],
    soll_haben: [470],
    debit_credit: [420, 490],
    debit_credit_balance: [420, 490, 555],
  };
  const textCells = labels
    .slice(0, firstAmount)
    .map((label, index) =>
      left(
        layout.valueDate ? ([40, 100, 160][index] as number) : ([40, 105][index] as number),
        label,
      ),
    );
  const amountCellsHeader = labels
    .slice(firstAmount)
    .map((label, index) => right(positions[layout.columns][index] as number, label));
  return [...textCells, ...amountCellsHeader];
}

function bookingLine(
  layout: Layout,
  s: Statement,
  booking: Booking,
  balance: number,
  edited: boolean,
): Line {
  const date = dateText(s.locale, booking.date);
  const head = layout.valueDate
    ? [left(40, date), left(100, date), left(160, booking.text)]
    : [left(40, date), left(105, booking.text)];
  return [...head, ...amountCells(layout, s, booking, balance, edited)];
}

/** The statement as pages of lines. */
export function pagesOf(layout: Layout, s: Statement, variant: Variant): Page[] {
  const printed = printedOf(s, variant);
  const l = s.locale;
  const pages: Line[][] = [];
  let page: Line[] = [...layout.head(s, printed.iban, printed.routing)];
  page.push(layout.opening(s, money(l, s.opening)), text(''), tableHeaderLine(layout));
  let balance = s.opening;
  printed.bookings.forEach((booking, index) => {
    if (index > 0 && index % printed.rowsPerPage === 0) {
      page.push(text(''), layout.carried(money(l, balance + printed.carriedOffset)));
      page.push(text(layout.footer));
      pages.push(page);
      page = [layout.brought(money(l, balance), pages.length + 1), tableHeaderLine(layout)];
    }
    balance += booking.amount;
    page.push(bookingLine(layout, s, booking, balance, index === printed.edited));
  });
  page.push(text(''), layout.closing(s, money(l, printed.closing)), text(''), text(layout.footer));
  pages.push(page);
  return pages;
}

const addressBlock = (s: Statement, salutation: string): Line[] => [
  text(salutation),
  text(s.holder),
  text(s.street),
  text(s.town),
  text(''),
];

const spaced = (iban: string) => iban.replace(/(.{4})/g, '$1 ').trim();

export const layouts: readonly Layout[] = [
  {
    id: 'de-classic',
    columns: 'signed',
    valueDate: true,
    head: (s, iban) => [
      text('Kontoauszug (synthetisches Testdokument)'),
      text(''),
      ...addressBlock(s, 'Frau/Herrn'),
      line(
        left(
          40,
          `Kontoauszug vom ${dateText(s.locale, s.period.start)} bis ${dateText(s.locale, s.period.end)}`,
        ),
        left(360, `Erstellt am ${dateText(s.locale, s.statementDate)}`),
      ),
      text(`IBAN ${spaced(iban ?? '')}`),
    ],
    tableHeader: ['Buchung', 'Valuta', 'Vorgang', `Betrag EUR`],
    opening: (s, amount) =>
      line(
        left(40, `Alter Kontostand / Opening balance ${dateText(s.locale, s.period.start)}`),
        right(555, `${amount} EUR`),
      ),
    closing: (s, amount) =>
      line(
        left(40, `Neuer Kontostand / Closing balance ${dateText(s.locale, s.period.end)}`),
        right(555, `${amount} EUR`),
      ),
    carried: (amount) => line(left(40, 'Übertrag'), right(555, amount)),
    brought: (amount, page) => line(left(40, `Übertrag von Seite ${page - 1}`), right(555, amount)),
    footer: 'Synthetisches Testdokument - kein Bankbeleg',
  },
  {
    id: 'at-soll-haben',
    columns: 'soll_haben',
    valueDate: false,
    head: (s, iban) => [
      text('KONTOAUSZUG'),
      text('Synthetisches Testdokument'),
      text(''),
      line(left(40, `Kontoinhaber: ${s.holder}`)),
      line(
        left(40, `IBAN: ${spaced(iban ?? '')}`),
        left(330, `Auszugsdatum: ${dateText(s.locale, s.statementDate)}`),
      ),
      text(
        `Auszugszeitraum: ${dateText(s.locale, s.period.start)} - ${dateText(s.locale, s.period.end)}`,
      ),
      text(`Währung: ${s.locale.currency}`),
    ],
    tableHeader: ['Datum', 'Buchungstext', 'Betrag'],
    opening: (_s, amount) => line(left(40, 'Anfangssaldo'), right(470, amount), left(478, 'H')),
    closing: (_s, amount) => line(left(40, 'Endsaldo'), right(470, amount), left(478, 'H')),
    carried: (amount) => line(left(40, 'Übertrag'), right(470, amount), left(478, 'H')),
    brought: (amount) => line(left(40, 'Übertrag'), right(470, amount), left(478, 'H')),
    footer: 'Synthetisches Testdokument',
  },
  {
    id: 'ch-columns',
    columns: 'debit_credit_balance',
    valueDate: false,
    head: (s, iban) => [
      text('Kontoauszug Privatkonto (synthetisches Testdokument)'),
      text(''),
      text(`Kontoinhaberin: ${s.holder}`),
      text(`IBAN ${spaced(iban ?? '')}`),
      text(`Periode ${dateText(s.locale, s.period.start)} - ${dateText(s.locale, s.period.end)}`),
      text(`Währung ${s.locale.currency}`),
    ],
    tableHeader: ['Datum', 'Text', 'Belastung', 'Gutschrift', 'Saldo'],
    opening: (_s, amount) => line(left(40, 'Saldovortrag'), right(555, amount)),
    closing: (_s, amount) => line(left(40, 'Neuer Saldo'), right(555, amount)),
    carried: (amount) => line(left(40, 'Übertrag'), right(555, amount)),
    brought: (amount) => line(left(40, 'Übertrag'), right(555, amount)),
    footer: 'Synthetisches Testdokument',
  },
  {
    id: 'nl-afschrift',
    columns: 'debit_credit',
    valueDate: false,
    head: (s, iban) => [
      text('Rekeningafschrift (synthetisch testdocument)'),
      text(''),
      text(`Rekeninghouder ${s.holder}`),
      text(`IBAN ${spaced(iban ?? '')}`),
      line(
        left(
          40,
          `Periode ${dateText(s.locale, s.period.start)} t/m ${dateText(s.locale, s.period.end)}`,
        ),
        left(330, `Datum afschrift ${dateText(s.locale, s.statementDate)}`),
      ),
    ],
    tableHeader: ['Datum', 'Omschrijving', 'Af', 'Bij'],
    opening: (_s, amount) => line(left(40, 'Beginsaldo'), right(555, amount)),
    closing: (_s, amount) => line(left(40, 'Eindsaldo'), right(555, amount)),
    carried: (amount) => line(left(40, 'Transport'), right(555, amount)),
    brought: (amount) => line(left(40, 'Transport'), right(555, amount)),
    footer: 'Synthetisch testdocument',
  },
  {
    id: 'fr-releve',
    columns: 'debit_credit',
    valueDate: false,
    head: (s, iban) => [
      text('RELEVÉ DE COMPTE (document de test synthétique)'),
      text(''),
      ...addressBlock(s, 'M. ou Mme'),
      text(`du ${dateText(s.locale, s.period.start)} au ${dateText(s.locale, s.period.end)}`),
      text(`IBAN : ${spaced(iban ?? '')}`),
    ],
    tableHeader: ['Date', 'Libellé', 'Débit', 'Crédit'],
    opening: (s, amount) =>
      line(left(40, `Ancien solde au ${dateText(s.locale, s.period.start)}`), right(555, amount)),
    closing: (s, amount) =>
      line(left(40, `Nouveau solde au ${dateText(s.locale, s.period.end)}`), right(555, amount)),
    carried: (amount) => line(left(40, 'À reporter'), right(555, amount)),
    brought: (amount) => line(left(40, 'Report'), right(555, amount)),
    footer: 'Document de test synthétique',
  },
  {
    id: 'es-extracto',
    columns: 'signed_balance',
    valueDate: true,
    head: (s, iban) => [
      text('EXTRACTO DE CUENTA (documento de prueba sintético)'),
      text(''),
      text(`Titular: ${s.holder}`),
      text(`IBAN: ${spaced(iban ?? '')}`),
      text(
        `Periodo: del ${dateText(s.locale, s.period.start)} al ${dateText(s.locale, s.period.end)}`,
      ),
      text(`Fecha de emisión: ${dateText(s.locale, s.statementDate)}`),
    ],
    tableHeader: ['F. Oper.', 'F. Valor', 'Concepto', 'Importe', 'Saldo'],
    opening: (_s, amount) => line(left(40, 'Saldo anterior'), right(555, amount)),
    closing: (_s, amount) => line(left(40, 'Saldo final'), right(555, amount)),
    carried: (amount) => line(left(40, 'Suma y sigue'), right(555, amount)),
    brought: (amount) => line(left(40, 'Suma y sigue'), right(555, amount)),
    footer: 'Documento de prueba sintético',
  },
  {
    id: 'it-estratto',
    columns: 'debit_credit',
    valueDate: false,
    head: (s, iban) => [
      text('ESTRATTO CONTO (documento di prova sintetico)'),
      text(''),
      text(`Intestatario: ${s.holder}`),
      text(`IBAN ${spaced(iban ?? '')}`),
      text(
        `Periodo dal ${dateText(s.locale, s.period.start)} al ${dateText(s.locale, s.period.end)}`,
      ),
    ],
    tableHeader: ['Data', 'Descrizione', 'Dare', 'Avere'],
    opening: (s, amount) =>
      line(left(40, `Saldo iniziale al ${dateText(s.locale, s.period.start)}`), right(555, amount)),
    closing: (s, amount) =>
      line(left(40, `Saldo finale al ${dateText(s.locale, s.period.end)}`), right(555, amount)),
    carried: (amount) => line(left(40, 'A riportare'), right(555, amount)),
    brought: (amount) => line(left(40, 'Riporto'), right(555, amount)),
    footer: 'Documento di prova sintetico',
  },
  {
    id: 'pl-wyciag',
    columns: 'signed_balance',
    valueDate: false,
    head: (s, iban) => [
      text('WYCIĄG BANKOWY (syntetyczny dokument testowy)'),
      text(''),
      text(`Właściciel rachunku: ${s.holder}`),
      text(`Numer rachunku: ${spaced(iban ?? '')}`),
      text(
        `Okres: od ${dateText(s.locale, s.period.start)} do ${dateText(s.locale, s.period.end)}`,
      ),
      text(`Waluta: ${s.locale.currency}`),
    ],
    tableHeader: ['Data', 'Opis operacji', 'Kwota', 'Saldo'],
    opening: (_s, amount) => line(left(40, 'Saldo początkowe'), right(555, amount)),
    closing: (_s, amount) => line(left(40, 'Saldo końcowe'), right(555, amount)),
    carried: (amount) => line(left(40, 'Do przeniesienia'), right(555, amount)),
    brought: (amount) => line(left(40, 'Z przeniesienia'), right(555, amount)),
    footer: 'Syntetyczny dokument testowy',
  },
  {
    id: 'uk-current',
    columns: 'debit_credit_balance',
    valueDate: false,
    head: (s, iban) => [
      text('Statement of account (synthetic test document)'),
      text(''),
      ...addressBlock(s, 'Mx'),
      line(left(40, `Statement date ${dateText(s.locale, s.statementDate)}`)),
      text(`IBAN ${spaced(iban ?? '')}`),
      text(
        `Statement period ${dateText(s.locale, s.period.start)} to ${dateText(s.locale, s.period.end)}`,
      ),
    ],
    tableHeader: ['Date', 'Description', 'Paid out', 'Paid in', 'Balance'],
    opening: (s, amount) =>
      line(
        left(40, dateText(s.locale, s.period.start)),
        left(105, 'Balance brought forward'),
        right(555, amount),
      ),
    closing: (s, amount) =>
      line(
        left(40, dateText(s.locale, s.period.end)),
        left(105, 'Balance carried forward'),
        right(555, amount),
      ),
    carried: (amount) => line(left(105, 'Balance carried forward'), right(555, amount)),
    brought: (amount) => line(left(105, 'Balance brought forward'), right(555, amount)),
    footer: 'Synthetic test document - not issued by a bank',
  },
  {
    id: 'us-checking',
    columns: 'signed_balance',
    valueDate: false,
    head: (s, _iban, routing) => [
      text('Checking account statement (synthetic test document)'),
      text(''),
      ...addressBlock(s, ''),
      line(
        left(40, `Account number: ${s.accountNumber ?? ''}`),
        left(300, `Routing number (RTN): ${routing ?? ''}`),
      ),
      text(
        `Statement period: ${dateText(s.locale, s.period.start)} through ${dateText(s.locale, s.period.end)}`,
      ),
      text(''),
      line(
        left(40, 'Beginning balance'),
        left(150, 'Deposits and additions'),
        left(290, 'Withdrawals and subtractions'),
        left(450, 'Ending balance'),
      ),
      summaryValues(s),
    ],
    tableHeader: ['Date', 'Description', 'Amount', 'Balance'],
    opening: () => text('Transaction detail'),
    closing: (_s, amount) => line(left(40, 'Ending balance'), right(555, `$${amount}`)),
    carried: (amount) => line(left(40, 'Balance forward'), right(555, `$${amount}`)),
    brought: (amount) => line(left(40, 'Balance forward'), right(555, `$${amount}`)),
    footer: 'Synthetic test document - not issued by a bank',
  },
];

function summaryValues(s: Statement): Line {
  const l = s.locale;
  const credits = s.bookings.filter((b) => b.amount > 0).reduce((sum, b) => sum + b.amount, 0);
  const debits = s.bookings.filter((b) => b.amount < 0).reduce((sum, b) => sum + b.amount, 0);
  return line(
    left(40, `$${money(l, s.opening)}`),
    left(150, `$${money(l, credits)}`),
    left(290, `-$${money(l, -debits)}`),
    left(450, `$${money(l, closingOf(s))}`),
  );
}
