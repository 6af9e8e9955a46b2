import type { TSchema } from '@sinclair/typebox';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { AppError } from '../../errors.js';
import type { AnyOp } from './op.js';

/**
 * Request validation from the same TypeBox declarations that feed the OpenAPI document.
 * Bodies are validated strictly (no coercion: a JSON string is not an integer); query strings are
 * text by nature, so query inputs coerce "25" to 25 and nothing else.
 */
const bodyAjv = new Ajv({ allErrors: false, useDefaults: true, coerceTypes: false, strict: false });
const queryAjv = new Ajv({ allErrors: false, useDefaults: true, coerceTypes: true, strict: false });

function describe(error: ErrorObject): string {
  const where = error.instancePath === '' ? 'request' : error.instancePath.slice(1).replaceAll('/', '.');
  if (error.keyword === 'additionalProperties') {
    return `${where} has an unknown field '${String(error.params.additionalProperty)}'`;
  }
  if (error.keyword === 'required') return `${where} is missing the required field '${String(error.params.missingProperty)}'`;
  return `${where} ${error.message ?? 'is invalid'}`;
}

export type InputValidator = (raw: unknown) => unknown;

/** A request a transport could not decode (a malformed protobuf message): refused here like any bad input. */
export class MalformedInput {
  constructor(readonly reason: string) {}
}

/** Decimal digits only, at most 15 (every such number is a safe integer): no sign, hex, exponent, space. */
const decimalDigits = /^\d{1,15}$/;

function isIntegerSchema(schema: TSchema): boolean {
  const { type, anyOf } = schema as { type?: unknown; anyOf?: TSchema[] };
  if (type === 'integer' || type === 'number') return true;
  return Array.isArray(anyOf) && anyOf.some(isIntegerSchema);
}

/** Query and path values are text; Ajv's coercion reads '0x10', '1e3', ' 7' and 'Infinity' as numbers, so integers are checked first. */
function integerNames(schema: TSchema): readonly string[] {
  const properties = (schema as { properties?: Record<string, TSchema> }).properties ?? {};
  return Object.keys(properties).filter((name) => isIntegerSchema(properties[name] as TSchema));
}

function assertDecimalIntegers(raw: unknown, names: readonly string[]): void {
  if (raw === null || typeof raw !== 'object') return;
  for (const name of names) {
    const value = (raw as Record<string, unknown>)[name];
    if (typeof value === 'string' && !decimalDigits.test(value)) {
      throw new AppError('invalid_argument', `${name} must be written in decimal digits (at most 15), got ${JSON.stringify(value.slice(0, 40))}`);
    }
  }
}

export function compileInputValidator(op: AnyOp): InputValidator {
  const fromQuery = op.http?.inputFrom === 'query';
  const ajv = fromQuery ? queryAjv : bodyAjv;
  const validate: ValidateFunction = ajv.compile(op.input as TSchema);
  const integers = fromQuery ? integerNames(op.input as TSchema) : [];
  return (raw) => {
    if (raw instanceof MalformedInput) throw new AppError('invalid_argument', raw.reason);
    assertDecimalIntegers(raw, integers);
    if (validate(raw)) return raw;
    const first = validate.errors?.[0];
    throw new AppError('invalid_argument', first === undefined ? 'invalid request' : describe(first));
  };
}
