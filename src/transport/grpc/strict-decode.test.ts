// The wire check against independent oracles: a fatal TextDecoder for UTF-8, and messages encoded by hand from
// the protobuf encoding spec (tag = field number * 8 + wire type, lengths as varints).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { loadIbanQaPackage } from './proto.js';
import { wireProblem } from './strict-decode.js';
import { lengthDelimited, varint } from '../../../test/helpers/protobuf-wire.js';

const { definition } = loadIbanQaPackage();
type Descriptor = Parameters<typeof wireProblem>[1];
const descriptorOf = (name: string) =>
  (definition[`ibanqa.v1.${name}`] as unknown as { type: Descriptor }).type;
const lookup = (typeName: string) => descriptorOf(typeName.slice(typeName.lastIndexOf('.') + 1));
const validateRequest = descriptorOf('ValidateRequest');

/** Field 1 of ValidateRequest (repeated string ibans), once per payload. */
const ibansField = (payloads: readonly Uint8Array[]) =>
  Uint8Array.from(payloads.flatMap((payload) => lengthDelimited(1, [...payload])));
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
function isUtf8Oracle(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

test('string fields: accepted exactly when the bytes are UTF-8 (any bytes, ASCII, text and broken sequences)', () => {
  const payload = fc.oneof(
    fc.uint8Array({ maxLength: 200 }),
    fc.string({ maxLength: 60 }).map((text) => Uint8Array.from(Buffer.from(text, 'utf8'))),
    fc.string({ unit: 'binary', maxLength: 60 }).map((text) => Uint8Array.from(Buffer.from(text))),
  );
  fc.assert(
    fc.property(fc.array(payload, { minLength: 1, maxLength: 8 }), (payloads) => {
      const problem = wireProblem(ibansField(payloads), validateRequest, lookup);
      assert.equal(problem === undefined, payloads.every(isUtf8Oracle), problem);
    }),
    { numRuns: 3_000 },
  );
});

test('tags and lengths of any varint width are read; truncation and unknown numbers are refused', () => {
  for (const length of [1, 63, 64, 100, 127, 128, 300]) {
    const text = Uint8Array.from(Buffer.from('D'.repeat(length)));
    assert.equal(
      wireProblem(ibansField([text, text]), validateRequest, lookup),
      undefined,
      `length ${length}`,
    );
  }
  // Field 1 with a non-minimal (two-byte) tag varint is still field 1.
  const wideTag = Uint8Array.from([0x8a, 0x00, 0x02, 0x44, 0x45]);
  assert.equal(wireProblem(wideTag, validateRequest, lookup), undefined);
  assert.match(
    wireProblem(Uint8Array.from([...varint(99 * 8 + 2), 1, 0x41]), validateRequest, lookup) ?? '',
    /unknown field number 99/,
  );
  assert.match(
    wireProblem(Uint8Array.from([0x0a, 0x80]), validateRequest, lookup) ?? '',
    /truncated varint/,
  );
  assert.match(
    wireProblem(Uint8Array.from([0x0a, 5, 0x44]), validateRequest, lookup) ?? '',
    /runs past the message/,
  );
  assert.match(
    wireProblem(Uint8Array.from([0x08, 1]), validateRequest, lookup) ?? '',
    /wire type 0, the proto declares 2/,
  );
});
