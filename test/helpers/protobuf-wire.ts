/** Protobuf wire pieces, written by hand from the encoding spec (not by the library under test). */
export function varint(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return bytes;
}
export const tag = (field: number, wireType: number) => varint(field * 8 + wireType);
export const lengthDelimited = (field: number, payload: readonly number[]) => [
  ...tag(field, 2),
  ...varint(payload.length),
  ...payload,
];
export const text = (value: string) => [...Buffer.from(value, 'utf8')];
