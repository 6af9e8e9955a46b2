// Goal: the fast acceptor in front of ajv changes no verdict and no Error object. Method: every op whose input
// takes the fast path gets random and hostile inputs (near-misses of its shape, wrong types, surrogate pairs at the
// bounds, unknown and inherited fields, anything JSON); each input goes to the validator the service uses and to
// ajv alone (a second, independent implementation), and the outcomes must be equal: the same value accepted, or an
// AppError with the same code and message.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { TSchema } from '@sinclair/typebox';
import { AppError } from '../../errors.js';
import { limits } from '../../limits.js';
import { ops } from '../table.js';
import { compileAjvValidator, compileInputValidator, MalformedInput } from './input-validation.js';
import { fastAcceptorOf } from './input-validation-fast.js';
import type { AnyOp } from './op.js';

const fastOps = ops.filter(
  (op) => op.http?.inputFrom !== 'query' && fastAcceptorOf(op.input as TSchema) !== undefined,
);

type Outcome = { accepted: unknown } | { code: string; message: string };

function outcomeOf(validate: (raw: unknown) => unknown, raw: unknown): Outcome {
  try {
    return { accepted: validate(raw) };
  } catch (error) {
    assert.ok(error instanceof AppError, `not an AppError: ${String(error)}`);
    return { code: error.code, message: error.message };
  }
}

interface FieldShape {
  readonly name: string;
  readonly list: boolean;
  readonly maxLength: number;
  readonly maxItems: number;
}

function shapeOf(op: AnyOp): FieldShape[] {
  const properties = (
    op.input as unknown as { properties: Record<string, Record<string, unknown>> }
  ).properties;
  return Object.entries(properties).map(([name, schema]) => {
    const item = (schema.items ?? schema) as { maxLength?: number };
    return {
      name,
      list: schema.type === 'array',
      maxLength: item.maxLength ?? 64,
      maxItems: (schema.maxItems as number | undefined) ?? 4,
    };
  });
}

/** Strings around the length bound, in code units and in code points (astral characters are two units). */
function boundedString(maxLength: number): fc.Arbitrary<string> {
  const astral = '\u{1F600}';
  return fc.oneof(
    fc.string({ maxLength: maxLength + 2 }),
    fc.string({ unit: 'grapheme', maxLength: maxLength + 2 }),
    fc.integer({ min: 0, max: maxLength + 2 }).map((n) => 'D'.repeat(n)),
    fc.integer({ min: 0, max: maxLength + 2 }).map((n) => astral.repeat(n)),
    fc
      .tuple(fc.nat(maxLength + 1), fc.nat(maxLength + 1))
      .map(([a, b]) => 'A'.repeat(a) + astral.repeat(b)),
    fc.constantFrom('', 'DE89370400440532013000', ' ', '\u0000', '\uD800', '\uDC00x'),
  );
}

const anyJson = fc.jsonValue({ maxDepth: 3 });

function fieldValue(field: FieldShape): fc.Arbitrary<unknown> {
  const text = boundedString(field.maxLength);
  if (!field.list)
    return fc.oneof({ weight: 6, arbitrary: text }, { weight: 1, arbitrary: anyJson });
  const item = fc.oneof({ weight: 12, arbitrary: text }, { weight: 1, arbitrary: anyJson });
  return fc.oneof(
    { weight: 6, arbitrary: fc.array(item, { maxLength: Math.min(field.maxItems + 2, 120) }) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(field.maxItems, field.maxItems + 1, 0)
        .map((n) => Array.from({ length: n }, () => 'DE89370400440532013000')),
    },
    { weight: 1, arbitrary: anyJson },
  );
}

/** Objects near the op's shape: fields dropped, extra, of the wrong type, or inherited. */
function nearInput(op: AnyOp): fc.Arbitrary<unknown> {
  const fields = shapeOf(op);
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const field of fields) record[field.name] = fieldValue(field);
  const body = fc.record(record, { requiredKeys: [] });
  return fc.oneof(
    { weight: 8, arbitrary: body },
    {
      weight: 2,
      arbitrary: fc
        .tuple(body, fc.dictionary(fc.string({ maxLength: 8 }), anyJson, { maxKeys: 2 }))
        .map(([fitting, extra]) => ({ ...extra, ...fitting })),
    },
    {
      weight: 1,
      arbitrary: body.map((fitting) => Object.assign(Object.create(fitting) as object, {})),
    },
    {
      weight: 1,
      arbitrary: body.map((fitting) => {
        const rest = JSON.stringify(fitting).slice(1);
        return JSON.parse(`{"__proto__":{"x":1}${rest === '}' ? '' : ','}${rest}`) as unknown;
      }),
    },
    { weight: 1, arbitrary: anyJson },
    { weight: 1, arbitrary: fc.anything() },
  );
}

describe('fast input acceptor', () => {
  it('takes the simple bodies it was written for, among them the validate body', () => {
    const names = fastOps.map((op) => op.name);
    assert.ok(names.includes('iban.validate'), names.join(', '));
    assert.ok(!names.includes('iban.generate'), 'an op with defaults or numbers stays with ajv');
  });

  for (const op of fastOps) {
    it(`${op.name}: the same outcome as ajv alone for random and hostile inputs`, () => {
      const served = compileInputValidator(op);
      const reference = compileAjvValidator(op);
      fc.assert(
        fc.property(nearInput(op), (raw) => {
          assert.deepEqual(outcomeOf(served, raw), outcomeOf(reference, raw));
        }),
        { numRuns: 3_000 },
      );
    });
  }

  it('iban.validate: the bounds themselves, in code units and code points', () => {
    const op = fastOps.find((candidate) => candidate.name === 'iban.validate') as AnyOp;
    const served = compileInputValidator(op);
    const reference = compileAjvValidator(op);
    const max = limits.ibanInputCharsMax;
    const cases: unknown[] = [
      { ibans: ['A'.repeat(max)] },
      { ibans: ['A'.repeat(max + 1)] },
      { ibans: ['\u{1F600}'.repeat(max)] },
      { ibans: ['\u{1F600}'.repeat(max + 1)] },
      { ibans: Array.from({ length: limits.validateIbansMax }, () => 'DE') },
      { ibans: Array.from({ length: limits.validateIbansMax + 1 }, () => 'DE') },
      { ibans: [] },
      { ibans: ['DE', 1] },
      { ibans: 'DE' },
      { ibans: ['DE'], extra: true },
      {},
      [],
      null,
      'ibans',
      new MalformedInput('the message could not be decoded'),
    ];
    for (const raw of cases) assert.deepEqual(outcomeOf(served, raw), outcomeOf(reference, raw));
    assert.equal(
      (outcomeOf(served, { ibans: ['A'.repeat(max + 1)] }) as { message: string }).message,
      `ibans.0 must have at most ${max} characters`,
    );
  });
});
