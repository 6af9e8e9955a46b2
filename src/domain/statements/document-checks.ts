import type { CheckContext } from './check-context.js';
import type { DocumentFacts, PdfFacts } from './document.js';
import type { Findings } from './findings.js';

// Checks of the file itself (PDF metadata and structure, image EXIF and OCR quality), not of what the
// statement says.

/** Consumer editors and converters; a bank's statement generator is none of these. Matched as words, case-insensitive. */
const editingTools = [
  'photoshop',
  'gimp',
  'microsoft word',
  'microsoft® word',
  'libreoffice',
  'openoffice',
  'ilovepdf',
  'smallpdf',
  'sejda',
  'pdfescape',
  'pdf-xchange',
  'foxit phantompdf',
  'foxit pdf editor',
  'nitro',
  'canva',
  'inkscape',
  'print to pdf',
  'pdfelement',
  'acrobat pro',
  'pdf24',
  'paint.net',
];

export function checkPdf(facts: DocumentFacts, context: CheckContext, findings: Findings): void {
  const pdf = facts.pdf;
  if (pdf === null) return;
  checkPdfTools(pdf, findings);
  checkPdfDates(pdf, context, findings);
  checkPdfRevisions(pdf, findings);
  checkPdfContents(pdf, findings);
}

/** Producer and creator against the editing tools. */
function checkPdfTools(pdf: PdfFacts, findings: Findings): void {
  const tools = [pdf.producer, pdf.creator].filter((value): value is string => value !== null);
  const editor = tools.find((value) =>
    editingTools.some((tool) => value.toLowerCase().includes(tool)),
  );
  if (editor !== undefined)
    findings.add('EDITING_TOOL_PRODUCER', `The PDF was produced or created with "${editor}"`, [
      { page: null, text: `Producer: ${pdf.producer ?? '-'}; Creator: ${pdf.creator ?? '-'}` },
    ]);
  else if (tools.length > 0)
    findings.add(
      'NO_EDITOR_METADATA',
      `Producer "${pdf.producer ?? '-'}", creator "${pdf.creator ?? '-'}"`,
    );
}

/** Creation and modification dates against each other and the review's clock. */
function checkPdfDates(pdf: PdfFacts, context: CheckContext, findings: Findings): void {
  const dates = {
    page: null,
    text: `CreationDate: ${pdf.creationDate ?? '-'}; ModDate: ${pdf.modificationDate ?? '-'}`,
  };
  if (pdf.creationDate !== null && pdf.modificationDate !== null) {
    // Generators stamp both dates within the same save; a minute of slack covers slow writers.
    if (Date.parse(pdf.modificationDate) - Date.parse(pdf.creationDate) > 60_000)
      findings.add(
        'MODIFIED_AFTER_CREATION',
        `Modified ${pdf.modificationDate}, created ${pdf.creationDate}`,
        [dates],
      );
    if (Date.parse(pdf.modificationDate) < Date.parse(pdf.creationDate))
      findings.add(
        'MODIFIED_BEFORE_CREATION',
        `Modified ${pdf.modificationDate}, before its creation ${pdf.creationDate}`,
        [dates],
      );
  }
  for (const date of [pdf.creationDate, pdf.modificationDate]) {
    if (date !== null && Date.parse(date) > context.now.getTime())
      findings.add('METADATA_DATE_IN_FUTURE', `Metadata date ${date} lies after the review`, [
        dates,
      ]);
  }
}

// After the date checks: a single revision is only reported when the dates show no modification either.
function checkPdfRevisions(pdf: PdfFacts, findings: Findings): void {
  if (pdf.revisions > 1)
    findings.add(
      'INCREMENTAL_UPDATES',
      `The file holds ${pdf.revisions} revisions (${pdf.revisions - 1} incremental update(s))`,
      [{ page: null, text: `${pdf.revisions} %%EOF sections` }],
    );
  if (
    pdf.revisions <= 1 &&
    !findings.has('MODIFIED_AFTER_CREATION') &&
    !findings.has('MODIFIED_BEFORE_CREATION')
  )
    findings.add('SINGLE_REVISION', 'Written once and never modified');
}

/** Truncation, scripts, embedded files and pages without a text layer. */
function checkPdfContents(pdf: PdfFacts, findings: Findings): void {
  if (!pdf.endsWithEof)
    findings.add('FILE_TRUNCATED', 'The file does not end with %%EOF', [
      { page: null, text: 'no %%EOF in the last 1,024 bytes' },
    ]);
  if (pdf.javascript)
    findings.add('EMBEDDED_JAVASCRIPT', 'The PDF contains JavaScript', [
      { page: null, text: '/JavaScript or /JS action' },
    ]);
  if (pdf.embeddedFiles > 0)
    findings.add('EMBEDDED_FILES', `The PDF embeds ${pdf.embeddedFiles} file(s)`, [
      { page: null, text: '/EmbeddedFiles' },
    ]);
  if (pdf.pagesWithoutText.length > 0) {
    findings.add(
      'PAGES_WITHOUT_TEXT_LAYER',
      `Page(s) ${pdf.pagesWithoutText.join(', ')} have no text layer`,
      pdf.pagesWithoutText.map((page) => ({ page, text: 'no text on this page' })),
    );
  }
}

export function checkImage(facts: DocumentFacts, findings: Findings): void {
  const image = facts.image;
  if (image === null) return;
  if (image.ocrConfidence < 60)
    findings.add('LOW_OCR_CONFIDENCE', `OCR confidence ${Math.round(image.ocrConfidence)} of 100`);
  if (
    image.software !== null &&
    editingTools.some((tool) => image.software?.toLowerCase().includes(tool))
  ) {
    findings.add('IMAGE_EDITOR_SOFTWARE', `EXIF Software: ${image.software}`, [
      { page: 1, text: `Software: ${image.software}` },
    ]);
  }
}
