/**
 * Writes the statement corpus: `node --import tsx test/statements/corpus/generate.ts`. Each statement is a
 * file under files/ with a JSON of its expected outcome beside it (what was printed, and the finding a
 * tampering must raise), all derived from the model, never from the review's own output. Deterministic:
 * the same seeds give the same bytes (pdf-lib's IDs aside, which no check reads).
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { appendIncrementalUpdate } from '../corpus.js';
import { layouts, pagesOf, printedOf, type Layout, type Variant } from './layouts.js';
import { statementOf, type CountryCode, type Statement } from './model.js';
import { drawable, renderPdf, renderPng } from './render.js';

export const corpusDir = join(dirname(fileURLToPath(import.meta.url)), 'files');

export interface Expected {
  readonly file: string;
  readonly layout: string;
  readonly country: string;
  readonly language: string;
  readonly kind: 'pdf' | 'png';
  readonly variant: Variant;
  readonly clean: boolean;
  /** Codes the review must raise (empty for a clean statement, which must raise no high-severity one). */
  readonly codes: readonly string[];
  readonly fields: {
    readonly holder: string;
    readonly iban: string | null;
    readonly account_number_last4: string | null;
    readonly routing_number: string | null;
    readonly period: { readonly start: string; readonly end: string };
    readonly opening_balance: string;
    readonly closing_balance: string;
    readonly transaction_count: number;
  };
}

const countryOf: Record<string, CountryCode> = {
  'de-classic': 'DE',
  'at-soll-haben': 'AT',
  'ch-columns': 'CH',
  'nl-afschrift': 'NL',
  'fr-releve': 'FR',
  'es-extracto': 'ES',
  'it-estratto': 'IT',
  'pl-wyciag': 'PL',
  'uk-current': 'GB',
  'us-checking': 'US',
};

const codesOf: Record<Variant, string[]> = {
  clean: [],
  multipage: [],
  arithmetic: ['BALANCE_MISMATCH'],
  outside: ['TRANSACTION_OUTSIDE_PERIOD'],
  edited: ['MIXED_FONTS_IN_AMOUNTS', 'BALANCE_MISMATCH'],
  incremental: ['INCREMENTAL_UPDATES'],
  bad_iban: ['IBAN_INVALID'],
  bad_routing: ['ROUTING_NUMBER_INVALID'],
  bad_routing_prefix: ['ROUTING_NUMBER_INVALID'],
  carried: ['CARRIED_FORWARD_MISMATCH'],
};

/** Which statements: every layout clean, arithmetic off and dated out of period, and the rest spread over layouts. */
const plan: readonly { layout: string; variant: Variant; kind?: 'png' }[] = [
  ...layouts.flatMap((layout) =>
    (['clean', 'arithmetic', 'outside'] as const).map((variant) => ({
      layout: layout.id,
      variant,
    })),
  ),
  ...['de-classic', 'ch-columns', 'fr-releve', 'es-extracto', 'us-checking'].map((layout) => ({
    layout,
    variant: 'edited' as const,
  })),
  ...['at-soll-haben', 'nl-afschrift', 'it-estratto', 'uk-current'].map((layout) => ({
    layout,
    variant: 'incremental' as const,
  })),
  ...['de-classic', 'fr-releve', 'nl-afschrift', 'pl-wyciag', 'it-estratto'].map((layout) => ({
    layout,
    variant: 'bad_iban' as const,
  })),
  { layout: 'us-checking', variant: 'bad_routing' },
  { layout: 'us-checking', variant: 'bad_routing_prefix' },
  ...['uk-current', 'de-classic', 'es-extracto', 'pl-wyciag'].map((layout) => ({
    layout,
    variant: 'multipage' as const,
  })),
  ...['uk-current', 'es-extracto'].map((layout) => ({ layout, variant: 'carried' as const })),
  { layout: 'de-classic', variant: 'clean', kind: 'png' },
  { layout: 'es-extracto', variant: 'clean', kind: 'png' },
  { layout: 'at-soll-haben', variant: 'clean', kind: 'png' },
  { layout: 'us-checking', variant: 'arithmetic', kind: 'png' },
];

const money = (minor: number) =>
  `${minor < 0 ? '-' : ''}${Math.floor(Math.abs(minor) / 100)}.${String(Math.abs(minor) % 100).padStart(2, '0')}`;

async function holderAsPrinted(holder: string, kind: 'pdf' | 'png'): Promise<string> {
  if (kind === 'png') return holder;
  const doc = await PDFDocument.create();
  return drawable(await doc.embedFont(StandardFonts.Helvetica), holder);
}

async function expectedOf(
  file: string,
  layout: Layout,
  statement: Statement,
  variant: Variant,
  kind: 'pdf' | 'png',
): Promise<Expected> {
  const printed = printedOf(statement, variant);
  return {
    file,
    layout: layout.id,
    country: statement.locale.country,
    language: statement.locale.language,
    kind,
    variant,
    clean: codesOf[variant].length === 0,
    codes: codesOf[variant],
    fields: {
      holder: await holderAsPrinted(statement.holder, kind),
      iban: printed.iban,
      account_number_last4: statement.accountNumber?.slice(-4) ?? null,
      routing_number: printed.routing,
      period: statement.period,
      opening_balance: money(statement.opening),
      closing_balance: money(printed.closing),
      transaction_count: printed.bookings.length,
    },
  };
}

interface Planned {
  readonly name: string;
  readonly kind: 'pdf' | 'png';
  readonly layout: Layout;
  readonly variant: Variant;
  readonly statement: Statement;
}

/** The corpus as planned: each statement's model, before any rendering. */
export function planned(): Planned[] {
  return plan.map((entry, index) => {
    const layout = layouts.find((candidate) => candidate.id === entry.layout) as Layout;
    const kind = entry.kind ?? 'pdf';
    const multi = entry.variant === 'multipage' || entry.variant === 'carried';
    const bookings = multi ? 12 : kind === 'png' ? 6 : 8;
    const statement = statementOf(countryOf[layout.id] as CountryCode, 1_001 + index, bookings);
    const name = `${layout.id}-${entry.variant}${kind === 'png' ? '-scan' : ''}`;
    return { name, kind, layout, variant: entry.variant, statement };
  });
}

export function expectations(): Promise<Expected[]> {
  return Promise.all(
    planned().map(({ name, kind, layout, variant, statement }) =>
      expectedOf(`${name}.${kind}`, layout, statement, variant, kind),
    ),
  );
}

async function generate(): Promise<void> {
  rmSync(corpusDir, { recursive: true, force: true });
  mkdirSync(corpusDir, { recursive: true });
  for (const { name, kind, layout, variant, statement } of planned()) {
    const pages = pagesOf(layout, statement, variant);
    const issued = new Date(`${statement.statementDate}T08:00:00Z`);
    let bytes: Uint8Array =
      kind === 'png' ? await renderPng(pages[0] ?? []) : await renderPdf(pages, issued);
    if (variant === 'incremental')
      bytes = appendIncrementalUpdate(
        bytes,
        new Date(issued.getTime() + 86_400_000 * 20),
        'Synthetic Statement Renderer (ibanqa test corpus)',
      );
    writeFileSync(join(corpusDir, `${name}.${kind}`), bytes);
    const expected = await expectedOf(`${name}.${kind}`, layout, statement, variant, kind);
    writeFileSync(join(corpusDir, `${name}.json`), `${JSON.stringify(expected, null, 2)}\n`);
  }
  const count = readdirSync(corpusDir).filter((name) => name.endsWith('.json')).length;
  console.log(`${count} statements in ${corpusDir}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await generate();
