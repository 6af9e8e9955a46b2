// The REST answer bytes must be exactly what JSON.stringify would give, encoded as UTF-8: the expected value is
// Buffer.from(JSON.stringify(value)) (V8's serializer and Node's encoder), never this module's own output.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { outputJsonBytes, outputJsonView, withRowTails } from './json-bytes.js';

const expected = (value: unknown) => Buffer.from(JSON.stringify(value) ?? 'null', 'utf8');
const same = (value: unknown) =>
  assert.deepEqual(outputJsonBytes(value), expected(value), JSON.stringify(value));

/** Strings with every kind of character: ASCII, two- and three-byte, astral pairs, lone surrogates, controls. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({
    unit: fc.constantFrom(
      'a',
      'Ä',
      'ö',
      '€',
      '😀',
      '\ud800',
      '\udc00',
      '"',
      '\\',
      '\u0000',
      '\u001f',
      '\u007f',
      '\u2028',
    ),
  }),
);

test('rows: byte-identical to JSON.stringify on arbitrary flat rows with shared frozen nested values', () => {
  const shared = Object.freeze({
    lei: null,
    payment_schemes: Object.freeze(['sct']),
    city: 'Köln',
  });
  const value = fc.oneof(
    anyText,
    fc.boolean(),
    fc.integer(),
    fc.double(),
    fc.constant(null),
    fc.constant(undefined),
    fc.constant(shared),
    fc.constant(['a', 'b']),
    fc.constant(() => 1),
  );
  fc.assert(
    fc.property(
      fc.array(fc.dictionary(fc.string({ unit: 'binary', maxLength: 8 }), value, { maxKeys: 8 }), {
        maxLength: 20,
      }),
      (rows) => same(rows),
    ),
    { numRuns: 2_000 },
  );
});

test('per-request arrays of shared frozen values serialize like JSON.stringify, holes and undefined as null', () => {
  const view = Object.freeze({
    record_id: 1,
    address: Object.freeze({ city: 'Köln' }),
    codes: Object.freeze([Object.freeze({ scheme: 'de_blz', value: '1' })]),
  });
  const dated = { at: new Date(0) };
  const element = fc.oneof(
    fc.constant(view),
    anyText,
    fc.double(),
    fc.constant(undefined),
    fc.constant(null),
    fc.constant(dated),
    fc.constant(() => 1),
    fc.constant([view, [undefined]]),
  );
  fc.assert(
    fc.property(
      fc.array(fc.record({ matches: fc.array(element, { maxLength: 6 }), n: fc.integer() }), {
        maxLength: 10,
      }),
      (rows) => same(rows),
    ),
    { numRuns: 2_000 },
  );
  // eslint-disable-next-line no-sparse-arrays -- a hole is the case under test: JSON.stringify writes it as null
  same([{ matches: [view, , view] }]);
});

test('envelopes: objects whose array fields are rows, arrays and scalars', () => {
  const row = fc.dictionary(
    fc.string({ maxLength: 6 }),
    fc.oneof(anyText, fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined)),
    { maxKeys: 5 },
  );
  const output = fc.oneof(
    fc.array(row, { maxLength: 5 }),
    fc.record({
      success: fc.boolean(),
      count: fc.integer(),
      seed: fc.option(anyText),
      rows: fc.array(row, { maxLength: 5 }),
      note: fc.constant(undefined),
      nested: fc.record({ a: anyText }),
    }),
    anyText,
    fc.double(),
    fc.constant(null),
  );
  fc.assert(
    fc.property(output, (value) => same(value)),
    { numRuns: 2_000 },
  );
});

test('a first key never borrows the fragment of a later key, and escapes match JSON.stringify', () => {
  same([{ '': 0, '\u0000': false }]);
  same([
    { iban: 'DE"89\\\u0007\ud800x', ok: true },
    { iban: 'ÄÖÜ', n: 1.5 },
    { s: '\udc00\ud83d\ude00\ud83d' },
  ]);
  same([{ n: -0, big: 1e21, small: 5e-7, inf: Infinity, nan: NaN }]);
});

test('answers larger than the scratch grow it and stay exact; a view is the same bytes as an owned copy', () => {
  const rows = Array.from({ length: 2_000 }, (_, index) => ({
    index,
    city: 'Zürich',
    text: 'x'.repeat(100),
  }));
  same(rows);
  assert.deepEqual(Buffer.from(outputJsonView(rows)), expected(rows));
});

test('rows with cached tails serialize their head keys, then the tail bytes; rows without a tail as usual', () => {
  const tailFields = {
    swift_code: 'COBADEFFXXX',
    bank_name: 'Commerzbank',
    bank_city: 'Köln',
    bank_match: 'matched',
  };
  const tail = {
    headKeys: ['iban', 'valid'],
    bytes: Buffer.from(`,${JSON.stringify(tailFields).slice(1)}`),
  };
  const row = { iban: 'DE89370400440532013000', valid: true, ...tailFields };
  const plain = { iban: 'x', n: 1 };
  same(withRowTails([row, plain, row], [tail, undefined, tail]));
  // A head key JSON.stringify skips (undefined) is skipped, and the next head key is then written as the first.
  same(withRowTails([{ ...row, iban: undefined }], [tail]));
  // The tail is what is written after the head keys: a tail with other bytes shows them (the mechanism is real).
  const marked = { headKeys: ['iban'], bytes: Buffer.from(',"tail":1}') };
  assert.equal(
    outputJsonBytes(withRowTails([row], [marked])).toString(),
    '[{"iban":"DE89370400440532013000","tail":1}]',
  );
});
