/** Pages of lines to a text PDF (pdf-lib, standard fonts) or a scanned-looking greyscale PNG (sharp, SVG text). */
import anyAscii from 'any-ascii';
import { PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';
import sharp from 'sharp';
import type { Page } from './layouts.js';

const PAGE = { width: 595, height: 842 };
const TOP = 800;
const LEADING = 14;
const SIZE = 9;

/**
 * Text the standard fonts can draw (WinAnsi): the narrow no-break space becomes a no-break space and letters
 * outside the encoding their ASCII form ("ą" -> "a"), as a statement generator with Latin-1 fonts prints them.
 */
export function drawable(font: PDFFont, text: string): string {
  return [...text.replace(/\u202F/g, '\u00A0')]
    .map((char) => {
      try {
        font.encodeText(char);
        return char;
      } catch {
        return anyAscii(char);
      }
    })
    .join('');
}

export async function renderPdf(pages: readonly Page[], issued: Date): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setProducer('Synthetic Statement Renderer (ibanqa test corpus)');
  doc.setCreator('ibanqa corpus generator');
  doc.setCreationDate(issued);
  doc.setModificationDate(issued);
  const main = await doc.embedFont(StandardFonts.Helvetica);
  const other = await doc.embedFont(StandardFonts.Courier);
  for (const lines of pages) {
    const page = doc.addPage([PAGE.width, PAGE.height]);
    lines.forEach((line, index) => {
      const y = TOP - index * LEADING;
      for (const cell of line) {
        const font = cell.other === true ? other : main;
        const value = drawable(font, cell.text);
        if (value.trim() === '') continue;
        const width = font.widthOfTextAtSize(value, SIZE);
        const x = cell.align === 'right' ? cell.x - width : cell.x;
        page.drawText(value, { x, y, size: SIZE, font });
      }
    });
  }
  return doc.save({ useObjectStreams: false });
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** One page as a greyscale PNG at 2 px per point: what a scanner or a phone photo of the page gives. */
export async function renderPng(page: Page): Promise<Buffer> {
  const scale = 2;
  const used = (page.length + 2) * LEADING;
  const height = Math.round((used + 40) * scale);
  const width = PAGE.width * scale;
  const texts = page.flatMap((line, index) =>
    line
      .filter((cell) => cell.text.trim() !== '')
      .map(
        (cell) =>
          `<text x="${cell.x * scale}" y="${(40 + index * LEADING) * scale}" font-family="DejaVu Sans Condensed" font-size="${SIZE * scale}" text-anchor="${cell.align === 'right' ? 'end' : 'start'}" fill="#111">${escapeXml(cell.text)}</text>`,
      ),
  );
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/>${texts.join('')}</svg>`;
  return sharp(Buffer.from(svg)).grayscale().png({ compressionLevel: 9 }).toBuffer();
}
