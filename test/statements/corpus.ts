/**
 * The statement test corpus, made by the tests themselves: PDFs with pdf-lib, images by sharp rendering SVG
 * text (DejaVu fonts: Debian fonts-dejavu-core). Every holder, bank text and account is synthetic, except the
 * registry-backed IBANs, which are the published example IBANs of their countries' registries and test suites.
 */
import { deflateSync } from 'node:zlib';
import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import sharp from 'sharp';

export interface Row {
  readonly date: string;
  readonly description: string;
  readonly amount: string;
  readonly balance: string;
  /** Draw this row's amount in another font (an edited figure). */
  readonly otherFont?: boolean;
}

export interface StatementSpec {
  readonly holder: string;
  readonly bankName: string;
  readonly bic?: string;
  readonly iban?: string;
  readonly routing?: string;
  readonly account?: string;
  readonly period: string;
  readonly currency: string;
  readonly opening: string;
  readonly closing: string;
  readonly rows: readonly Row[];
  readonly producer?: string;
  readonly creator?: string;
  readonly created?: Date;
  readonly modified?: Date;
  /** Rows per page (two pages when rows exceed it). */
  readonly rowsPerPage?: number;
}

export function headerLines(spec: StatementSpec): string[] {
  return [
    'Account statement (synthetic test document)',
    `Bank: ${spec.bankName}`,
    ...(spec.bic === undefined ? [] : [`BIC: ${spec.bic}`]),
    `Account holder: ${spec.holder}`,
    ...(spec.iban === undefined ? [] : [`IBAN: ${spec.iban}`]),
    ...(spec.routing === undefined ? [] : [`Routing number: ${spec.routing}`]),
    ...(spec.account === undefined ? [] : [`Account number: ${spec.account}`]),
    `Statement period: ${spec.period}`,
    `Currency: ${spec.currency}`,
    `Opening balance ${spec.opening}`,
  ];
}

function drawRow(page: PDFPage, row: Row, y: number, font: PDFFont, other: PDFFont): void {
  page.drawText(row.date, { x: 50, y, size: 10, font });
  page.drawText(row.description, { x: 130, y, size: 10, font });
  page.drawText(row.amount, { x: 380, y, size: 10, font: row.otherFont === true ? other : font });
  page.drawText(row.balance, { x: 470, y, size: 10, font });
}

export async function statementPdf(spec: StatementSpec): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const created = spec.created ?? new Date('2025-02-01T08:00:00Z');
  doc.setProducer(spec.producer ?? 'Synthetic Core Banking Statement Service');
  doc.setCreator(spec.creator ?? 'Synthetic Statement Generator');
  doc.setCreationDate(created);
  doc.setModificationDate(spec.modified ?? created);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const other = await doc.embedFont(StandardFonts.Courier);
  const perPage = spec.rowsPerPage ?? 30;
  let page = doc.addPage([595, 842]);
  let y = 800;
  for (const line of headerLines(spec)) {
    page.drawText(line, { x: 50, y, size: 11, font });
    y -= 18;
  }
  y -= 10;
  spec.rows.forEach((row, index) => {
    if (index > 0 && index % perPage === 0) {
      page = doc.addPage([595, 842]);
      y = 800;
    }
    drawRow(page, row, y, font, other);
    y -= 16;
  });
  page.drawText(`Closing balance ${spec.closing}`, { x: 50, y: y - 10, size: 11, font });
  return doc.save({ useObjectStreams: false });
}

/** A plain-text PDF (a letter, not a statement). */
export async function textPdf(lines: readonly string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setProducer('Synthetic Letter Writer');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  lines.forEach((line, index) =>
    page.drawText(line, { x: 50, y: 800 - index * 18, size: 11, font }),
  );
  return doc.save({ useObjectStreams: false });
}

/**
 * Appends an incremental update by hand (pdf-lib writes whole files only): a new Info dictionary with a later
 * ModDate and another Producer, its xref section and a trailer whose /Prev points at the original xref.
 */
export function appendIncrementalUpdate(
  original: Uint8Array,
  modified: Date,
  producer: string,
): Uint8Array {
  const text = Buffer.from(original).toString('latin1');
  const previousXref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)?.[1]);
  const trailer = /trailer\s*<<([\s\S]*?)>>\s*startxref/.exec(text)?.[1] ?? '';
  const size = Number(/\/Size (\d+)/.exec(trailer)?.[1]);
  const root = /\/Root (\d+ \d+ R)/.exec(trailer)?.[1];
  const stamp = `D:${modified.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;
  const objectOffset = original.length + 1;
  const object = `${size} 0 obj\n<< /Producer (${producer}) /ModDate (${stamp}) /CreationDate (D:20250201080000Z) >>\nendobj\n`;
  const xrefOffset = objectOffset + object.length;
  const update =
    `\n${object}xref\n0 1\n0000000000 65535 f \n${size} 1\n${String(objectOffset).padStart(10, '0')} 00000 n \n` +
    `trailer\n<< /Size ${size + 1} /Root ${root} /Info ${size} 0 R /Prev ${previousXref} >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return Buffer.concat([Buffer.from(original), Buffer.from(update, 'latin1')]);
}

/**
 * Marks a PDF as encrypted with the standard security handler and a user password the empty string does not
 * open (random /O and /U entries): every reader then asks for a password, as for a real protected statement.
 */
export function encryptedPdf(original: Uint8Array): Uint8Array {
  const text = Buffer.from(original).toString('latin1');
  const previousXref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)?.[1]);
  const trailer = /trailer\s*<<([\s\S]*?)>>\s*startxref/.exec(text)?.[1] ?? '';
  const size = Number(/\/Size (\d+)/.exec(trailer)?.[1]);
  const root = /\/Root (\d+ \d+ R)/.exec(trailer)?.[1];
  const hex = (seed: number) =>
    Array.from({ length: 32 }, (_, index) =>
      ((index * 37 + seed) % 256).toString(16).padStart(2, '0'),
    ).join('');
  const objectOffset = original.length + 1;
  const object = `${size} 0 obj\n<< /Filter /Standard /V 1 /R 2 /O <${hex(11)}> /U <${hex(97)}> /P -44 >>\nendobj\n`;
  const xrefOffset = objectOffset + object.length;
  const update =
    `\n${object}xref\n${size} 1\n${String(objectOffset).padStart(10, '0')} 00000 n \n` +
    `trailer\n<< /Size ${size + 1} /Root ${root} /Encrypt ${size} 0 R /ID [<${hex(3).slice(0, 32)}> <${hex(3).slice(0, 32)}>] /Prev ${previousXref} >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return Buffer.concat([Buffer.from(original), Buffer.from(update, 'latin1')]);
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A statement page as a PNG: sharp renders SVG text (DejaVu Sans Mono, so columns line up). */
export async function statementPng(lines: readonly string[]): Promise<Buffer> {
  const width = 1400;
  const lineHeight = 44;
  const height = 80 + lines.length * lineHeight;
  const text = lines
    .map(
      (line, index) =>
        `<text x="40" y="${70 + index * lineHeight}" font-family="DejaVu Sans Mono" font-size="26" fill="#000">${escapeXml(line)}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/>${text}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb: a valid greyscale PNG of side x side white pixels (side 8,000: 64 MP, 64 MB raw)
 * whose deflated data is about a thousand times smaller than its pixels.
 */
export function bombPng(side = 8_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const raw = Buffer.alloc((side + 1) * side, 0xff);
  for (let row = 0; row < side; row++) raw[row * (side + 1)] = 0; // filter type 0 per row
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
