import { sniffStatementFile, type StatementFileKind } from '../../domain/statements/file-type.js';
import { AppError } from '../../errors.js';
import { limits } from '../../limits.js';
import type { UploadRules } from '../framework/op.js';

/** The statement upload as the op declares it: both transports take the field, cap and code from here. */
export const statementUpload: UploadRules = {
  field: 'statement_file', // the form field the spec names
  maxBytes: limits.statementFileBytesMax,
  tooLarge: 'statement_file_too_large',
};

export interface UploadPart {
  readonly field: string;
  readonly filename: string;
  readonly bytes: Uint8Array;
}

/** An upload that passed the rules: the one file and its type as its bytes say. */
export interface CheckedUpload {
  readonly file: UploadPart;
  readonly kind: StatementFileKind;
}

/**
 * The upload rules of the spec, each with its own 400 code, checked before any credit moves: exactly one
 * statement_file, not empty, and a PDF, PNG, JPEG or WEBP by its bytes. The byte cap is the transports':
 * they stop reading past statementUpload.maxBytes, so a file here is within it.
 */
function checkStatementUpload(files: readonly UploadPart[]): CheckedUpload {
  const { field } = statementUpload;
  const other = files.find((part) => part.field !== field);
  if (other !== undefined)
    throw new AppError(
      'invalid_argument',
      `Unexpected file field '${other.field}': send the statement as '${field}'`,
    );
  if (files.length === 0)
    throw new AppError(
      'statement_file_missing',
      `No file: send exactly one file in the '${field}' field`,
    );
  if (files.length > 1)
    throw new AppError(
      'statement_file_duplicate',
      `${files.length} files in '${field}': send exactly one`,
    );
  const file = files[0] as UploadPart;
  if (file.bytes.byteLength === 0) throw new AppError('statement_file_empty', `${field} is empty`);
  const kind = sniffStatementFile(file.bytes);
  if (kind === null) {
    throw new AppError(
      'statement_file_unsupported_type',
      `${field} is not a PDF, PNG, JPEG or WEBP file (recognised by its content, not its name or declared type)`,
    );
  }
  return { file, kind };
}

/** Verdicts by request input: the gate checks the upload, the run reads the same verdict. */
const verdicts = new WeakMap<object, CheckedUpload>();

/** The verdict on one request's upload, checked on first ask (the op's gate) and then carried to its run. */
export function checkedUpload(input: { readonly files: readonly UploadPart[] }): CheckedUpload {
  let verdict = verdicts.get(input);
  if (verdict === undefined) {
    verdict = checkStatementUpload(input.files);
    verdicts.set(input, verdict);
  }
  return verdict;
}
