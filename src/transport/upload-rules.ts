import { AppError } from '../errors.js';
import type { AnyOp, UploadRules } from '../ops/framework/op.js';

const MIB = 1024 * 1024;

/** The upload rules of an op that takes a file; an upload route on an op that declares none is a wiring bug. */
export function uploadRulesOf(op: AnyOp): UploadRules {
  if (op.upload === undefined)
    throw new AppError('internal', `${op.name} takes an upload but declares no upload rules`);
  return op.upload;
}

/** The answer to a file past the op's cap, the same on both transports; the rest of the upload is not read. */
export function uploadTooLarge(rules: UploadRules): AppError {
  return new AppError(
    rules.tooLarge,
    `The file exceeds the ${rules.maxBytes}-byte (${rules.maxBytes / MIB} MB) limit; the upload was not read further`,
    { bytes_max: rules.maxBytes },
  );
}
