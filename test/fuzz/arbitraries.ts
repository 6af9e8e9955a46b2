import fc from 'fast-check';
import type { TSchema } from '@sinclair/typebox';

/**
 * fast-check arbitraries read from an op's TypeBox input schema (JSON Schema): values that mostly fit the
 * schema, so requests reach the op rather than stop at validation, and with a set chance a value that does not
 * (wrong type, out of range, unknown field, anything at all).
 */
interface Schema {
  readonly type?: string;
  readonly const?: unknown;
  readonly anyOf?: readonly Schema[];
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly required?: readonly string[];
  readonly items?: Schema;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly pattern?: string;
}

/** Strings that mean something to this API: countries, IBANs, routing numbers, seeds. Plus edge bytes. */
const meaningful = fc.constantFrom(
  'DE',
  'Germany',
  'FR',
  'GB',
  'NL',
  'AT',
  'US',
  'XX',
  'de',
  'DE89370400440532013000',
  'DE89 3704 0044 0532 0130 00',
  'GB82WEST12345698765432',
  'FR1420041010050500013M02606',
  '011000015',
  '021000021',
  'json',
  'csv',
  'bankdata-germany',
  'bundesbank-blz',
  'Berlin',
  'COBADEFFXXX',
  '',
  ' ',
  '\u0000',
  'ä€',
  '\uFFFD',
  '%ZZ',
  '../',
  'x'.repeat(200),
);

function stringOf(schema: Schema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 40, 200);
  const options: fc.Arbitrary<string>[] = [
    meaningful,
    fc.string({ minLength, maxLength: Math.max(minLength, Math.min(maxLength, 40)) }),
  ];
  if (schema.pattern !== undefined) options.push(fc.stringMatching(new RegExp(schema.pattern)));
  return fc.oneof(...options);
}

function integerOf(schema: Schema): fc.Arbitrary<number> {
  const min = schema.minimum ?? 0;
  const max = Math.min(schema.maximum ?? 1_000, min + 100_000);
  // Mostly small: a fuzz run should spend its time on many requests, not on a few 10,000-row ones.
  return fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min, max: Math.min(max, min + 20) }) },
    { weight: 1, arbitrary: fc.integer({ min, max }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        min,
        max,
        min - 1,
        max + 1,
        0,
        -1,
        2 ** 31,
        Number.MAX_SAFE_INTEGER,
      ),
    },
  );
}

export function valueOf(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.anyOf !== undefined)
    return fc.oneof(...schema.anyOf.map((option) => valueOf(option, depth)));
  switch (schema.type) {
    case 'string':
      return stringOf(schema);
    case 'integer':
      return integerOf(schema);
    case 'number':
      return fc.oneof(fc.double({ noNaN: true }), integerOf(schema));
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(
        schema.items === undefined ? fc.anything() : valueOf(schema.items, depth + 1),
        {
          minLength: schema.minItems ?? 0,
          maxLength: Math.min(schema.maxItems ?? 12, 12),
        },
      );
    case 'object':
      return objectOf(schema, depth);
    default:
      return fc.anything({ maxDepth: 2 });
  }
}

function objectOf(schema: Schema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  if (depth > 4) return fc.constant({});
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties))
    record[name] = valueOf(property, depth + 1);
  const optional = Object.keys(properties).filter((name) => !required.has(name));
  return fc
    .record(record, { requiredKeys: [...required].filter((name) => name in properties) })
    .map((value) => {
      for (const name of optional) if (value[name] === undefined) delete value[name];
      return value;
    });
}

/** Mostly schema-shaped, sometimes broken: a field of the wrong type, an unknown field, or anything at all. */
export function requestOf(schema: TSchema): fc.Arbitrary<unknown> {
  const shaped = valueOf(schema as Schema);
  return fc.oneof(
    { weight: 6, arbitrary: shaped },
    {
      weight: 1,
      arbitrary: fc
        .tuple(shaped, fc.string({ maxLength: 12 }), fc.anything({ maxDepth: 1 }))
        .map(([value, name, junk]) =>
          value !== null && typeof value === 'object' && !Array.isArray(value)
            ? { ...value, [name]: junk }
            : value,
        ),
    },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 3 }) },
  );
}

/** Byte-level mutations of a real request: flips, inserts, deletes, truncation, duplication. */
export function mutatedBytes(sample: Buffer): fc.Arbitrary<Buffer> {
  const edit = fc.oneof(
    fc.record({
      kind: fc.constant('flip' as const),
      at: fc.nat(),
      bit: fc.integer({ min: 0, max: 7 }),
    }),
    fc.record({
      kind: fc.constant('insert' as const),
      at: fc.nat(),
      byte: fc.integer({ min: 0, max: 255 }),
    }),
    fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
  );
  return fc.array(edit, { minLength: 1, maxLength: 6 }).map((edits) => {
    let bytes = [...sample];
    for (const change of edits) {
      const at = bytes.length === 0 ? 0 : change.at % bytes.length;
      if (change.kind === 'flip' && bytes.length > 0)
        bytes[at] = (bytes[at] as number) ^ (1 << change.bit);
      else if (change.kind === 'insert') bytes.splice(at, 0, change.byte);
      else if (change.kind === 'delete') bytes.splice(at, 1);
      else if (change.kind === 'truncate') bytes = bytes.slice(0, at);
      else if (change.kind === 'duplicate')
        bytes = [...bytes.slice(0, at), ...bytes.slice(at), ...bytes.slice(at)];
    }
    return Buffer.from(bytes);
  });
}
