import type { DocumentFacts } from '../../domain/statements/document.js';
import { sniffStatementFile } from '../../domain/statements/file-type.js';
import { AnalysisFailure } from '../failure.js';
import { extractImage } from './image.js';
import { extractPdf } from './pdf.js';

/** Facts of an uploaded file, by its magic bytes (checked again: the stored bytes are what is analysed). */
export function extractDocument(bytes: Uint8Array): Promise<DocumentFacts> {
  const kind = sniffStatementFile(bytes);
  if (kind === null)
    return Promise.reject(
      new AnalysisFailure('unreadable_document', 'not a PDF, PNG, JPEG or WEBP file'),
    );
  return kind === 'pdf' ? extractPdf(bytes) : extractImage(bytes, kind);
}
