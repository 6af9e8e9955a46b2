/**
 * What a publication carries: the snapshot's records as the publishing node imported them (after parsing), with
 * the import's options, as JSON lines, gzip-compressed. Records rather than the publisher's file, because the
 * registry fingerprint is a hash over exactly these records (rowHashOf hashes JSON.stringify of each, so a JSON
 * round trip keeps every hash): every node builds the same snapshot whatever importer code it runs, and no node
 * re-parses a spreadsheet. The file's own SHA-256 and name travel in the options, so the snapshot still names its
 * file. One line per record (the first line holds the rest) rather than one JSON text: a snapshot of a few hundred
 * thousand records would pass V8's longest string (about 512 MiB) as one text, never as lines.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { AppError } from '../../errors.js';
import type { ParsedSnapshot, RegistryRecord } from '../record.js';
import { sha256Hex } from '../store/identity.js';
import type { ImportOptions } from '../store/import-snapshot.js';
import type { CommittedImport } from '../store/registry-store.js';

/** The options an import needs to be made again elsewhere; `now` is the publishing node's import time. */
interface PublishedOptions {
  readonly fileSha256?: string | null;
  readonly fileName?: string | null;
  readonly mode?: 'full' | 'delta';
  readonly origin?: 'publisher' | 'embedded';
  readonly now: string;
}

export interface PublishedImport {
  readonly parsed: ParsedSnapshot;
  readonly options: PublishedOptions;
}

export interface EncodedPublication {
  readonly payload: Buffer;
  readonly sha256: string;
}

export function encodePublication(imported: CommittedImport): EncodedPublication {
  const { options, summary } = imported;
  const published: PublishedImport = {
    parsed: imported.parsed,
    options: {
      ...(options.fileSha256 === undefined ? {} : { fileSha256: options.fileSha256 }),
      ...(options.fileName === undefined ? {} : { fileName: options.fileName }),
      ...(options.mode === undefined ? {} : { mode: options.mode }),
      ...(options.origin === undefined ? {} : { origin: options.origin }),
      // The import's clock as it committed (generated_at), so every node records the same times.
      now: summary.registry.generated_at ?? new Date().toISOString(),
    },
  };
  const { records, ...rest } = published.parsed;
  const head: HeadLine = { parsed: rest, options: published.options };
  const lines = [head, ...records].map((value) => Buffer.from(`${JSON.stringify(value)}\n`));
  const payload = gzipSync(Buffer.concat(lines));
  return { payload, sha256: sha256Hex(payload) };
}

/** The first line: everything but the records. */
interface HeadLine {
  readonly parsed: Omit<ParsedSnapshot, 'records'>;
  readonly options: PublishedOptions;
}

const NEWLINE = 0x0a;

/** JSON.stringify escapes every newline inside a value, so each newline ends one value. */
function* jsonLines(text: Buffer): Generator<unknown> {
  for (let start = 0; start < text.length;) {
    const end = text.indexOf(NEWLINE, start);
    if (end < 0) throw new AppError('internal', 'a published registry snapshot ends inside a line');
    yield JSON.parse(text.toString('utf8', start, end));
    start = end + 1;
  }
}

export function decodePublication(encoded: EncodedPublication): PublishedImport {
  if (sha256Hex(encoded.payload) !== encoded.sha256)
    throw new AppError('internal', 'a published registry snapshot does not match its SHA-256');
  const lines = jsonLines(gunzipSync(encoded.payload));
  const head = lines.next().value as HeadLine;
  const records = [...lines] as RegistryRecord[];
  return { parsed: { ...head.parsed, records }, options: head.options };
}

/** The import options that make the published import again on top of `baseVersion`. */
export function importOptionsOf(published: PublishedImport, baseVersion: number): ImportOptions {
  const { now, ...rest } = published.options;
  return { ...rest, now: new Date(now), expectVersion: baseVersion };
}
