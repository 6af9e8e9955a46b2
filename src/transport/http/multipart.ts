import busboy from 'busboy';
import { AppError } from '../../errors.js';
import { limits } from '../../limits.js';
import type { UploadRules } from '../../ops/framework/op.js';
import { uploadTooLarge } from '../upload-rules.js';
import type { Exchange } from './respond.js';
import { bodyDeadlineMessage, watchBodyDeadline } from './body-deadline.js';

/** One file part as the op receives it: the bytes exactly as uploaded, the client's file name as a hint only. */
export interface UploadedFile {
  readonly field: string;
  readonly filename: string;
  readonly bytes: Uint8Array;
}

/** A multipart/form-data body as op input: text fields by name (first wins), every file part in order. */
export interface MultipartInput {
  readonly fields: Readonly<Record<string, string>>;
  readonly files: readonly UploadedFile[];
}

/** The whole body may exceed the file cap only by the multipart framing and the small text fields. */
function bodyBytesMaxOf(rules: UploadRules): number {
  return rules.maxBytes + limits.statementMultipartOverheadBytesMax;
}

function malformed(message: string): AppError {
  return new AppError('multipart_malformed', message);
}

/**
 * Streams a multipart/form-data body from uWS onData chunks through busboy. Every bound is enforced while
 * reading: a file over the op's cap (`rules`) or a body over the cap settles the request at once, further
 * chunks are ignored and the connection is closed after the answer, so an oversize upload is never read to its end.
 */
export function readMultipart(
  exchange: Exchange,
  contentType: string,
  contentLength: number | null,
  rules: UploadRules,
): Promise<MultipartInput> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let unwatch = (): void => undefined;
    const fail = (error: AppError) => {
      if (settled) return;
      settled = true;
      unwatch();
      exchange.closeConnection = true; // stop reading: uWS closes the socket once the answer is sent
      exchange.onAbort = undefined;
      reject(error);
    };
    exchange.onAbort = () =>
      fail(malformed('Client closed the connection before the upload arrived'));
    if (!/^multipart\/form-data\s*;/i.test(contentType)) {
      fail(malformed('Content-Type must be multipart/form-data with a boundary'));
      return;
    }
    if (contentLength !== null && contentLength > bodyBytesMaxOf(rules)) {
      fail(uploadTooLarge(rules));
      return;
    }
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        limits: {
          fileSize: rules.maxBytes,
          parts: limits.statementMultipartPartsMax,
          fieldSize: limits.statementExpectedBankCharsMax * 4,
        },
      });
    } catch (thrown) {
      fail(
        malformed(
          `Malformed multipart Content-Type: ${thrown instanceof Error ? thrown.message : 'unreadable'}`,
        ),
      );
      return;
    }
    const fields: Record<string, string> = {};
    const files: UploadedFile[] = [];
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated)
        fail(
          new AppError(
            'invalid_argument',
            `Field ${name} is longer than ${limits.statementExpectedBankCharsMax} characters`,
          ),
        );
      else if (!(name in fields)) fields[name] = value;
    });
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(uploadTooLarge(rules)));
      stream.on('close', () => {
        if (!settled)
          files.push({ field, filename: info.filename ?? '', bytes: Buffer.concat(chunks) });
      });
    });
    parser.on('partsLimit', () =>
      fail(malformed(`More than ${limits.statementMultipartPartsMax} parts in the upload`)),
    );
    parser.on('error', (error: Error) =>
      fail(malformed(`Malformed multipart body: ${error.message}`)),
    );
    parser.on('close', () => {
      if (settled) return;
      settled = true;
      unwatch();
      exchange.onAbort = undefined;
      resolve({ fields, files });
    });
    unwatch = watchBodyDeadline(() => fail(new AppError('request_timeout', bodyDeadlineMessage())));
    feedParser(exchange, parser, rules, () => settled, fail);
  });
}

/** uWS body chunks into busboy, refusing a body over the cap as soon as it is exceeded. */
function feedParser(
  exchange: Exchange,
  parser: busboy.Busboy,
  rules: UploadRules,
  settled: () => boolean,
  fail: (error: AppError) => void,
): void {
  const bodyBytesMax = bodyBytesMaxOf(rules);
  let received = 0;
  exchange.res.onData((chunk, isLast) => {
    if (settled() || exchange.aborted) return;
    received += chunk.byteLength;
    if (received > bodyBytesMax) {
      fail(uploadTooLarge(rules));
      return;
    }
    parser.write(Buffer.from(chunk.slice(0))); // uWS reuses the chunk's memory after this callback
    if (isLast) parser.end();
  });
}
