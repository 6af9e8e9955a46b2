/**
 * Minimal reader for the Compound File Binary format (the OLE2 container of legacy .xls): header, FAT with
 * DIFAT, directory, and regular or mini streams. Read-only; only what fetching one named stream needs.
 *
 * Hand-written for the reason xls.ts gives (SheetJS's npm releases carry CVE-2023-30533 and CVE-2024-22363,
 * https://github.com/advisories/GHSA-4r6h-8v6p-xvw6, https://github.com/advisories/GHSA-5pgg-2g8v-p4x9; the
 * fixed versions are not on npm): every sector chain is bounded by its allocation table or the file's size,
 * so a crafted file fails with an error instead of looping.
 */

const HEADER_SIZE = 512;
const HEADER_DIFAT_ENTRIES = 109;
const HEADER_DIFAT_OFFSET = 0x4c;
const DIRECTORY_ENTRY_SIZE = 128;
const DIRECTORY_NAME_BYTES = 64;
const END_OF_CHAIN = 0xfffffffe;
/** Sector ids at and above this value are markers (free, end of chain, FAT, DIFAT), never data. */
const MAX_REGULAR_SECTOR = 0xfffffffa;
const ENTRY_TYPE_STREAM = 2;
const ENTRY_TYPE_ROOT = 5;

interface DirectoryEntry {
  readonly name: string;
  readonly type: number;
  readonly start: number;
  readonly size: number;
}

export class CompoundFile {
  private readonly view: DataView;
  private readonly sectorSize: number;
  private readonly miniSectorSize: number;
  private readonly miniCutoff: number;
  private readonly fat: number[];
  private readonly entries: DirectoryEntry[];

  constructor(private readonly bytes: Uint8Array) {
    if (bytes.length < HEADER_SIZE) throw new Error('compound file header is truncated');
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.sectorSize = 1 << this.u16(0x1e);
    this.miniSectorSize = 1 << this.u16(0x20);
    this.miniCutoff = this.u32(0x38);
    this.fat = this.readFat();
    this.entries = this.readDirectory();
  }

  /** The bytes of the first stream with this name (case-insensitive, as CFB names compare). */
  stream(name: string): Uint8Array | null {
    const entry = this.entries.find(
      (e) => e.type === ENTRY_TYPE_STREAM && e.name.toLowerCase() === name.toLowerCase(),
    );
    if (entry === undefined) return null;
    if (entry.size >= this.miniCutoff)
      return this.chainBytes(
        entry.start,
        this.fat,
        this.sectorSize,
        (id) => this.sectorOffset(id),
        entry.size,
      );
    const root = this.entries.find((e) => e.type === ENTRY_TYPE_ROOT);
    if (root === undefined) throw new Error('compound file has no root entry');
    const miniStream = this.chainBytes(
      root.start,
      this.fat,
      this.sectorSize,
      (id) => this.sectorOffset(id),
      root.size,
    );
    const miniFat = toU32s(
      this.chainBytes(
        this.u32(0x3c),
        this.fat,
        this.sectorSize,
        (id) => this.sectorOffset(id),
        null,
      ),
    );
    return copyChain(
      miniStream,
      entry.start,
      miniFat,
      this.miniSectorSize,
      (id) => id * this.miniSectorSize,
      entry.size,
    );
  }

  private readFat(): number[] {
    const fatSectors: number[] = [];
    for (let i = 0; i < HEADER_DIFAT_ENTRIES; i++)
      fatSectors.push(this.u32(HEADER_DIFAT_OFFSET + i * 4));
    let difat = this.u32(0x44);
    const perDifatSector = this.sectorSize / 4 - 1;
    for (let guard = 0; difat < MAX_REGULAR_SECTOR; guard++) {
      if (guard > this.bytes.length / this.sectorSize) throw new Error('DIFAT chain loops');
      const offset = this.sectorOffset(difat);
      for (let i = 0; i < perDifatSector; i++) fatSectors.push(this.u32(offset + i * 4));
      difat = this.u32(offset + perDifatSector * 4);
    }
    const fat: number[] = [];
    for (const sector of fatSectors.slice(0, this.u32(0x2c))) {
      const offset = this.sectorOffset(sector);
      for (let i = 0; i < this.sectorSize / 4; i++) fat.push(this.u32(offset + i * 4));
    }
    return fat;
  }

  private readDirectory(): DirectoryEntry[] {
    const data = this.chainBytes(
      this.u32(0x30),
      this.fat,
      this.sectorSize,
      (id) => this.sectorOffset(id),
      null,
    );
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const entries: DirectoryEntry[] = [];
    for (
      let offset = 0;
      offset + DIRECTORY_ENTRY_SIZE <= data.length;
      offset += DIRECTORY_ENTRY_SIZE
    ) {
      const nameBytes = Math.min(
        view.getUint16(offset + DIRECTORY_NAME_BYTES, true),
        DIRECTORY_NAME_BYTES,
      );
      const name = new TextDecoder('utf-16le').decode(
        data.subarray(offset, offset + Math.max(0, nameBytes - 2)),
      );
      entries.push({
        name,
        type: data[offset + 66] ?? 0,
        start: view.getUint32(offset + 116, true),
        size: view.getUint32(offset + 120, true),
      });
    }
    return entries;
  }

  private chainBytes(
    start: number,
    table: readonly number[],
    size: number,
    offsetOf: (id: number) => number,
    length: number | null,
  ): Uint8Array {
    return copyChain(this.bytes, start, table, size, offsetOf, length);
  }

  private sectorOffset(id: number): number {
    const offset = (id + 1) * this.sectorSize;
    if (offset + this.sectorSize > this.bytes.length)
      throw new Error(`sector ${id} lies beyond the end of the file`);
    return offset;
  }

  private u16(offset: number): number {
    return this.view.getUint16(offset, true);
  }

  private u32(offset: number): number {
    return this.view.getUint32(offset, true);
  }
}

/** Concatenates a sector chain; `length` null reads the whole chain. Loops and dangling ids are errors. */
function copyChain(
  source: Uint8Array,
  start: number,
  table: readonly number[],
  sectorSize: number,
  offsetOf: (id: number) => number,
  length: number | null,
): Uint8Array {
  const parts: Uint8Array[] = [];
  let total = 0;
  for (let id = start, steps = 0; id !== END_OF_CHAIN; steps++) {
    if (id >= MAX_REGULAR_SECTOR || steps > table.length) throw new Error('broken sector chain');
    const offset = offsetOf(id);
    if (offset + sectorSize > source.length) throw new Error(`sector ${id} lies beyond its stream`);
    parts.push(source.subarray(offset, offset + sectorSize));
    total += sectorSize;
    if (length !== null && total >= length) break;
    const next = table[id];
    if (next === undefined) throw new Error(`sector ${id} is not in the allocation table`);
    id = next;
  }
  if (length !== null && total < length)
    throw new Error('stream is shorter than its directory entry says');
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return length === null ? out : out.subarray(0, length);
}

function toU32s(bytes: Uint8Array): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values: number[] = [];
  for (let offset = 0; offset + 4 <= bytes.length; offset += 4)
    values.push(view.getUint32(offset, true));
  return values;
}
