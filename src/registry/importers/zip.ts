/**
 * Minimal read-only ZIP reader for .xlsx containers: central directory, stored and deflated entries.
 * Enough for spreadsheets written by Excel and LibreOffice; no ZIP64, encryption or multi-disk archives.
 */
import { inflateRawSync } from 'node:zlib';
import { limits } from '../../limits.js';

export class ZipFormatError extends Error {
  override readonly name = 'ZipFormatError';
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
const END_RECORD_SIZE = 22;
/** The end record may be followed by an archive comment of at most 65,535 bytes. */
const MAX_COMMENT = 0xffff;
const CENTRAL_ENTRY_FIXED = 46;
const LOCAL_HEADER_FIXED = 30;
const METHOD_STORED = 0;
const METHOD_DEFLATE = 8;
const ZIP64_MARKER = 0xffffffff;

interface Entry {
  readonly method: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly localOffset: number;
}

export class ZipArchive {
  private readonly entries: ReadonlyMap<string, Entry>;
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.entries = this.readCentralDirectory();
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  read(name: string): Uint8Array {
    const entry = this.entries.get(name);
    if (entry === undefined) throw new ZipFormatError(`missing part ${name}`);
    if (this.u32(entry.localOffset) !== LOCAL_FILE_HEADER)
      throw new ZipFormatError(`bad local header for ${name}`);
    const start =
      entry.localOffset +
      LOCAL_HEADER_FIXED +
      this.u16(entry.localOffset + 26) +
      this.u16(entry.localOffset + 28);
    const end = start + entry.compressedSize;
    if (end > this.bytes.length) throw new ZipFormatError(`${name} is truncated`);
    const data = this.bytes.subarray(start, end);
    if (entry.method === METHOD_STORED) return data;
    if (entry.method !== METHOD_DEFLATE)
      throw new ZipFormatError(`${name} uses unsupported compression ${entry.method}`);
    if (entry.size > limits.registry.zipEntryBytesMax)
      throw new ZipFormatError(`${name} is larger than ${limits.registry.zipEntryBytesMax} bytes`);
    try {
      return inflateRawSync(data, { maxOutputLength: Math.max(entry.size, 1) });
    } catch (cause) {
      throw new ZipFormatError(`${name} does not inflate: ${(cause as Error).message}`);
    }
  }

  private readCentralDirectory(): Map<string, Entry> {
    const endOffset = this.findEndRecord();
    const count = this.u16(endOffset + 10);
    let offset = this.u32(endOffset + 16);
    const entries = new Map<string, Entry>();
    const decoder = new TextDecoder('utf-8');
    for (let i = 0; i < count; i++) {
      if (
        offset + CENTRAL_ENTRY_FIXED > this.bytes.length ||
        this.u32(offset) !== CENTRAL_DIRECTORY_ENTRY
      ) {
        throw new ZipFormatError('central directory is damaged');
      }
      const nameLength = this.u16(offset + 28);
      const entry: Entry = {
        method: this.u16(offset + 10),
        compressedSize: this.u32(offset + 20),
        size: this.u32(offset + 24),
        localOffset: this.u32(offset + 42),
      };
      if (entry.compressedSize === ZIP64_MARKER || entry.localOffset === ZIP64_MARKER)
        throw new ZipFormatError('ZIP64 is not supported');
      const name = decoder.decode(
        this.bytes.subarray(
          offset + CENTRAL_ENTRY_FIXED,
          offset + CENTRAL_ENTRY_FIXED + nameLength,
        ),
      );
      entries.set(name, entry);
      offset += CENTRAL_ENTRY_FIXED + nameLength + this.u16(offset + 30) + this.u16(offset + 32);
    }
    return entries;
  }

  private findEndRecord(): number {
    const lowest = Math.max(0, this.bytes.length - END_RECORD_SIZE - MAX_COMMENT);
    for (let offset = this.bytes.length - END_RECORD_SIZE; offset >= lowest; offset--) {
      if (this.u32(offset) === END_OF_CENTRAL_DIRECTORY) return offset;
    }
    throw new ZipFormatError('not a ZIP archive (no end of central directory)');
  }

  private u16(offset: number): number {
    return this.view.getUint16(offset, true);
  }

  private u32(offset: number): number {
    return this.view.getUint32(offset, true);
  }
}
