import type { ServerReadableStream, sendUnaryData } from '@grpc/grpc-js';
import type { Logger } from 'pino';
import { toAppError } from '../../errors.js';
import type { AnyOp } from '../../ops/framework/op.js';
import type { Service } from '../../service/execute.js';
import { uploadRulesOf, uploadTooLarge } from '../upload-rules.js';
import { grpcErrorOf, metadataText, peerIp, requestIdMetadata, requestIdOf } from './calls.js';

interface UploadChunk {
  readonly data?: Uint8Array;
  readonly filename?: string;
  readonly expected_bank?: string;
  readonly expected_bank_slug?: string;
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
 * in the op's upload field, the text fields), so both transports share every rule. The op's byte cap is
 * enforced while receiving: past it the call ends at once with the op's too-large code.
 */
export function uploadStream(
  deps: { readonly service: Service; readonly logger: Logger },
  op: AnyOp,
) {
  const rules = uploadRulesOf(op);
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
      if (received > rules.maxBytes) {
        finish(uploadTooLarge(rules));
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
          : [{ field: rules.field, filename, bytes: Buffer.concat(chunks, received) }];
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
