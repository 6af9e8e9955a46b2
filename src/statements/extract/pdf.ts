import { getDocumentProxy, getMeta } from 'unpdf';
import type {
  DocumentFacts,
  PdfFacts,
  TextLine,
  TextSpan,
} from '../../domain/statements/document.js';
import { limits } from '../../limits.js';
import { AnalysisFailure } from '../failure.js';

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

interface Item {
  readonly str: string;
  readonly transform: number[];
  readonly fontName: string;
  readonly width?: number;
}

/** "D:20250201093000+01'00'" -> ISO 8601; null when the text is not a PDF date. */
export function pdfDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const match = /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(Z|[+-]\d{2}'?\d{2}'?)?/.exec(
    value,
  );
  if (match === null) return null;
  const [, year, month = '01', day = '01', hour = '00', minute = '00', second = '00', zone] = match;
  const offset =
    zone === undefined || zone === 'Z'
      ? 'Z'
      : `${zone.slice(0, 3)}:${zone.replace(/'/g, '').slice(3, 5)}`;
  const time = Date.parse(`${year}-${month}-${day}T${hour}:${minute}:${second}${offset}`);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** Structure read from the bytes themselves: what a viewer hides (revisions, truncation, scripts). */
function rawFacts(bytes: Uint8Array) {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const revisions = text.match(/%%EOF/g)?.length ?? 0;
  return {
    version: /%PDF-(\d\.\d)/.exec(text.slice(0, 1024))?.[1] ?? null,
    revisions: Math.max(1, revisions),
    endsWithEof: text.slice(-1024).includes('%%EOF'),
    javascript: /\/(?:JavaScript|JS)\b/.test(text),
    embeddedFiles: /\/EmbeddedFiles?\b/.test(text),
    encrypted: /\/Encrypt\b/.test(text),
  };
}

/** Text items of one page grouped into lines by baseline (2 pt tolerance), left to right. */
function linesOf(pageNumber: number, items: readonly Item[]): TextLine[] {
  const rows: { y: number; items: Item[] }[] = [];
  for (const item of items) {
    if (item.str.trim() === '') continue;
    const y = item.transform[5] ?? 0;
    const row = rows.find((candidate) => Math.abs(candidate.y - y) <= 2);
    if (row === undefined) rows.push({ y, items: [item] });
    else row.items.push(item);
  }
  rows.sort((a, b) => b.y - a.y);
  return rows.map((row) => {
    const spans: TextSpan[] = row.items
      .sort((a, b) => (a.transform[4] ?? 0) - (b.transform[4] ?? 0))
      .map((item) => ({
        text: item.str.trim(),
        font: item.fontName,
        x: (item.transform[4] ?? 0) + (item.width ?? 0) / 2,
      }));
    return {
      page: pageNumber,
      text: spans
        .map((span) => span.text)
        .join(' ')
        .replace(/\s+/g, ' '),
      spans,
    };
  });
}

async function open(bytes: Uint8Array): Promise<PdfDocument> {
  try {
    // A copy: pdf.js detaches the buffer it is given.
    return await getDocumentProxy(new Uint8Array(bytes), {
      isEvalSupported: false,
      stopAtErrors: false,
      verbosity: 0,
    });
  } catch (thrown) {
    const name = (thrown as { name?: string }).name;
    if (name === 'PasswordException')
      throw new AnalysisFailure('encrypted_document', 'the PDF needs a password to open');
    throw new AnalysisFailure(
      'unreadable_document',
      `the PDF could not be parsed (${name ?? 'error'})`,
    );
  }
}

/** Text, metadata and structure of a PDF, bounded in pages. */
export async function extractPdf(bytes: Uint8Array): Promise<DocumentFacts> {
  const raw = rawFacts(bytes);
  const pdf = await open(bytes);
  try {
    if (pdf.numPages > limits.statementPdfPagesMax) {
      throw new AnalysisFailure(
        'too_many_pages',
        `${pdf.numPages} pages; a review reads at most ${limits.statementPdfPagesMax}`,
      );
    }
    const meta = await getMeta(pdf);
    const info = meta.info as Record<string, unknown>;
    const lines: TextLine[] = [];
    const fontsPerPage: number[] = [];
    const pagesWithoutText: number[] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      const items = (content.items as unknown[]).filter(
        (item): item is Item => typeof (item as Item).str === 'string',
      );
      const pageLines = linesOf(number, items);
      if (pageLines.length === 0) pagesWithoutText.push(number);
      fontsPerPage.push(
        new Set(items.filter((item) => item.str.trim() !== '').map((item) => item.fontName)).size,
      );
      lines.push(...pageLines);
      page.cleanup();
    }
    const attachments = (await pdf.getAttachments()) as Record<string, unknown> | null;
    const scripts = await pdf.getJSActions();
    const facts: PdfFacts = {
      version: raw.version,
      producer: typeof info.Producer === 'string' ? info.Producer : null,
      creator: typeof info.Creator === 'string' ? info.Creator : null,
      creationDate: pdfDate(info.CreationDate),
      modificationDate: pdfDate(info.ModDate),
      revisions: raw.revisions,
      endsWithEof: raw.endsWithEof,
      javascript: raw.javascript || (scripts !== null && Object.keys(scripts).length > 0),
      embeddedFiles:
        attachments === null ? (raw.embeddedFiles ? 1 : 0) : Object.keys(attachments).length,
      encrypted: raw.encrypted || info.EncryptFilterName != null,
      fontsPerPage,
      pagesWithoutText,
    };
    return { kind: 'pdf', pages: pdf.numPages, lines, pdf: facts, image: null };
  } finally {
    await pdf.destroy();
  }
}
