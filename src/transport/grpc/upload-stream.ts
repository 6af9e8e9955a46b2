import type { ServerReadableStream, sendUnaryData } from '@grpc/grpc-js';
import type { Logger } from 'pino';
import { AppError, toAppError } from '../../errors.js';
import { limits } from '../../limits.js';
import type { AnyOp } from '../../contract/op.js';
import type { Service } from '../../service/execute.js';
import { statementFileField } from '../../statements/upload-check.js';
import { grpcErrorOf, metadataText, peerIp, requestIdMetadata, requestIdOf } from './calls.js';

interface UploadChunk {
  readonly data?: Uint8Array;
  readonly filename?: string;
  readonly expected_bank?: string;
  readonly expected_bank_slug?: string;
}

function fileTooLarge(): AppError {
  return new AppError(
    'statement_file_too_large',
    `The file exceeds the ${limits.statementFileBytesMax}-byte (8 MB) limit; the upload was not read further`,
    { bytes_max: limits.statementFileBytesMax },
  );
}

/** Each text field keeps its first value, as in a multipart upload; '' is proto3's unset field, not a value. */
function keepFirstFields(fields: Record<string, string>, chunk: UploadChunk): void {
  for (const name of ['filename', 'expected_bank', 'expected_bank_slug'] as const) {
    const value = chunk[name];
    if (typeof value === 'string' && value !== '' && !(name in fields)) fields[name] = value;
  }
}

/**
 * Client-streaming upload: the chunks become the same input a multipart upload gives the op (one file part
 * named statement_file, the text fields), so both transports share every rule. The 8 MB cap is enforced
 * while receiving: past it the call ends at once with statement_file_too_large.
 */
export function uploadStream(
  deps: { readonly service: Service; readonly logger: Logger },
  op: AnyOp,
) {
  return (call: ServerReadableStream<UploadChunk, unknown>, callback: sendUnaryData<unknown>) => {
    const requestId = requestIdOf(call.metadata);
    call.sendMetadata(requestIdMetadata(requestId, call.metadata));
    const chunks: Buffer[] = [];
    const fields: Record<string, string> = {};
    let received = 0;
    let done = false;
    const finish = (thrown: unknown) => {
      if (done) return;
      done = true;
      const error = toAppError(thrown);
      if (error.code === 'internal')
        deps.logger.error({ err: error.cause ?? thrown, requestId, op: op.name }, 'internal error');
      callback(grpcErrorOf(error, requestId));
    };
    call.on('data', (chunk: UploadChunk) => {
      if (done) return;
      const data = chunk.data ?? new Uint8Array(0);
      received += data.byteLength;
      if (received > limits.statementFileBytesMax) {
        finish(fileTooLarge());
        call.destroy();
        return;
      }
      if (data.byteLength > 0) chunks.push(Buffer.from(data));
      keepFirstFields(fields, chunk);
    });
    call.on('error', (error) => finish(error));
    call.on('end', () => {
      if (done) return;
      const { filename = '', ...text } = fields;
      const files =
        chunks.length === 0
          ? []
          : [{ field: statementFileField, filename, bytes: Buffer.concat(chunks, received) }];
      const identity = {
        apiKey: metadataText(call.metadata, 'x-api-key'),
        ip: peerIp(call.getPeer()),
      };
      deps.service
        .execute(op, { ...text, files }, identity)
        .then((outcome) => {
          if (done) return;
          done = true;
          callback(null, outcome.output);
        })
        .catch(finish);
    });
  };
}
