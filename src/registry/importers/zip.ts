/**
 * Read-only ZIP access for .xlsx containers, on fflate (https://github.com/101arrowz/fflate): the central
 * directory lists the parts, and a part is inflated on demand, refused before inflating when its declared size
 * exceeds limits.registry.zipEntryBytesMax and stopped as soon as its data inflates past that declared size (the
 * zip-bomb guard). A part is read with fflate's streaming Unzip, not unzipSync: unzipSync inflates into a buffer
 * of the declared size and silently truncates data that is longer.
 */
import { Unzip, UnzipInflate, unzipSync, type UnzipFileInfo } from 'fflate';
import { limits } from '../../limits.js';

export class ZipFormatError extends Error {
  override readonly name = 'ZipFormatError';
}

export class ZipArchive {
  private readonly entries: ReadonlyMap<string, UnzipFileInfo>;

  constructor(private readonly bytes: Uint8Array) {
    const entries = new Map<string, UnzipFileInfo>();
    try {
      // A filter that keeps nothing lists the central directory without inflating a byte.
      unzipSync(bytes, {
        filter: (info) => {
          entries.set(info.name, info);
          return false;
        },
      });
    } catch (cause) {
      throw new ZipFormatError(`not a ZIP archive: ${(cause as Error).message}`);
    }
    this.entries = entries;
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
    const declared = entry.originalSize;
    if (declared > limits.registry.zipEntryBytesMax)
      throw new ZipFormatError(`${name} is larger than ${limits.registry.zipEntryBytesMax} bytes`);
    const part = inflatePart(this.bytes, name, declared);
    if ('failure' in part) throw new ZipFormatError(`${name} does not inflate: ${part.failure}`);
    if (part.data.length !== declared)
      throw new ZipFormatError(
        `${name} does not inflate to its declared ${declared} bytes (got ${part.data.length})`,
      );
    return part.data;
  }
}

/** One part's data, inflated chunk by chunk; stops at the first byte past `declared`. */
function inflatePart(
  bytes: Uint8Array,
  name: string,
  declared: number,
): { data: Uint8Array } | { failure: string } {
  const chunks: Uint8Array[] = [];
  let length = 0;
  let failure: string | undefined;
  let complete = false;
  const unzip = new Unzip((file) => {
    if (file.name !== name || chunks.length > 0 || complete) return;
    file.ondata = (error, chunk, final) => {
      if (error !== null) return void (failure ??= error.message);
      length += chunk.length;
      if (length > declared) {
        failure ??= `inflates past its declared ${declared} bytes`;
        return file.terminate();
      }
      chunks.push(chunk);
      complete ||= final;
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    unzip.push(bytes, true);
  } catch (cause) {
    failure ??= (cause as Error).message;
  }
  if (failure !== undefined) return { failure };
  if (!complete) return { failure: 'its data ends early' };
  return { data: chunks.length === 1 ? (chunks[0] as Uint8Array) : concat(chunks, length) };
}

function concat(chunks: readonly Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
