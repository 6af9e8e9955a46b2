import { sniffStatementFile, type StatementFileKind } from '../domain/statements/file-type.js';
import { AppError } from '../errors.js';
import { limits } from '../limits.js';

/** The form field the spec names for the file. */
export const statementFileField = 'statement_file';

export interface UploadPart {
  readonly field: string;
  readonly filename: string;
  readonly bytes: Uint8Array;
}

/**
 * The upload rules of the spec, each with its own 400 code, checked before any credit moves:
 * exactly one statement_file, not empty, at most 8 MB, and a PDF, PNG, JPEG or WEBP by its bytes.
 */
export function checkStatementUpload(files: readonly UploadPart[]): {
  file: UploadPart;
  kind: StatementFileKind;
} {
  const other = files.find((part) => part.field !== statementFileField);
  if (other !== undefined)
    throw new AppError(
      'invalid_argument',
      `Unexpected file field '${other.field}': send the statement as '${statementFileField}'`,
    );
  if (files.length === 0)
    throw new AppError(
      'statement_file_missing',
      `No file: send exactly one file in the '${statementFileField}' field`,
    );
  if (files.length > 1)
    throw new AppError(
      'statement_file_duplicate',
      `${files.length} files in '${statementFileField}': send exactly one`,
    );
  const file = files[0] as UploadPart;
  if (file.bytes.byteLength === 0)
    throw new AppError('statement_file_empty', 'statement_file is empty');
  if (file.bytes.byteLength > limits.statementFileBytesMax) {
    throw new AppError(
      'statement_file_too_large',
      `statement_file exceeds the ${limits.statementFileBytesMax}-byte (8 MB) limit`,
      { bytes_max: limits.statementFileBytesMax },
    );
  }
  const kind = sniffStatementFile(file.bytes);
  if (kind === null) {
    throw new AppError(
      'statement_file_unsupported_type',
      'statement_file is not a PDF, PNG, JPEG or WEBP file (recognised by its content, not its name or declared type)',
    );
  }
  return { file, kind };
}
