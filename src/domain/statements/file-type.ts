/** The upload kinds the spec accepts, recognised by their leading bytes (never by name or declared type). */
export type StatementFileKind = 'pdf' | 'png' | 'jpeg' | 'webp';

export const mediaTypeOf: Readonly<Record<StatementFileKind, string>> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

/** The kind a recorded media type names (a review resumed after a restart); undefined for any other. */
export function kindOfMediaType(mediaType: string): StatementFileKind | undefined {
  return (Object.keys(mediaTypeOf) as StatementFileKind[]).find(
    (kind) => mediaTypeOf[kind] === mediaType,
  );
}

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  if (bytes.length < at + signature.length) return false;
  return signature.every((byte, index) => bytes[at + index] === byte);
}

const ascii = (text: string) => [...text].map((character) => character.charCodeAt(0));

/**
 * PDF: "%PDF-" within the first 1,024 bytes (ISO 32000 lets readers accept leading junk there, and real
 * files from some generators carry it). PNG: the 8-byte signature. JPEG: SOI followed by a marker (FF D8 FF).
 * WEBP: a RIFF container whose form type is "WEBP".
 */
export function sniffStatementFile(bytes: Uint8Array): StatementFileKind | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).toString(
    'latin1',
  );
  if (head.includes('%PDF-')) return 'pdf';
  return null;
}
