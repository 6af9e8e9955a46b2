import type { StatementFileKind } from './file-type.js';

/** A run of text with the font it was drawn in (PDF text layer), or an OCR word group (font unknown). */
export interface TextSpan {
  readonly text: string;
  /** Font resource id within the document, null when unknown (OCR). */
  readonly font: string | null;
  /** Horizontal centre on the page in points (PDF text layer); absent for OCR. */
  readonly x?: number;
}

/** One visual line of the document, in reading order. Pages count from 1. */
export interface TextLine {
  readonly page: number;
  readonly text: string;
  readonly spans: readonly TextSpan[];
}

/** What the PDF structure says about how the file was made and changed. */
export interface PdfFacts {
  readonly version: string | null;
  readonly producer: string | null;
  readonly creator: string | null;
  readonly creationDate: string | null; // ISO 8601, when the PDF date parsed
  readonly modificationDate: string | null;
  /** Revisions: the count of end-of-file sections (1 = never updated incrementally). */
  readonly revisions: number;
  readonly endsWithEof: boolean;
  readonly javascript: boolean;
  readonly embeddedFiles: number;
  readonly encrypted: boolean;
  /** Distinct fonts used per page, in page order. */
  readonly fontsPerPage: readonly number[];
  /** Pages whose text layer holds no text (scanned pages). */
  readonly pagesWithoutText: readonly number[];
}

export interface ImageFacts {
  readonly format: string;
  readonly width: number;
  readonly height: number;
  /** tesseract's mean word confidence, 0-100. */
  readonly ocrConfidence: number;
  /** EXIF Software tag, when present. */
  readonly software: string | null;
}

/** Everything the extraction step found, as plain data: the input of the pure analysis. */
export interface DocumentFacts {
  readonly kind: StatementFileKind;
  readonly pages: number;
  readonly lines: readonly TextLine[];
  readonly pdf: PdfFacts | null;
  readonly image: ImageFacts | null;
}
