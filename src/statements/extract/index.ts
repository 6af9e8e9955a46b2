import type { DocumentFacts } from '../../domain/statements/document.js';
import type { StatementFileKind } from '../../domain/statements/file-type.js';
import { extractImage } from './image.js';
import { extractPdf } from './pdf.js';

/** Facts of an uploaded file of the type the upload check recognised (its bytes are those it checked). */
export function extractDocument(
  bytes: Uint8Array,
  kind: StatementFileKind,
): Promise<DocumentFacts> {
  return kind === 'pdf' ? extractPdf(bytes) : extractImage(bytes, kind);
}
