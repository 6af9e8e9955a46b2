import type { TSchema } from '@sinclair/typebox';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { AppError } from '../../errors.js';
import type { AnyOp } from './op.js';
import { fastAcceptorOf } from './input-validation-fast.js';

/**
 * Request validation from the same TypeBox declarations that feed the OpenAPI document.
 * Bodies are validated strictly (no coercion: a JSON string is not an integer); query strings are
 * text by nature, so query inputs coerce "25" to 25 and nothing else.
 */
// verbose: errors carry their schema, so a union of literals can be told as the values it allows.
const bodyAjv = new Ajv({
  allErrors: false,
  useDefaults: true,
  coerceTypes: false,
  strict: false,
  verbose: true,
});
const queryAjv = new Ajv({
  allErrors: false,
  useDefaults: true,
  coerceTypes: true,
  strict: false,
  verbose: true,
});

function pathOf(error: ErrorObject): string {
  return error.instancePath === '' ? 'request' : error.instancePath.slice(1).replaceAll('/', '.');
}

function listed(values: readonly unknown[]): string {
  return values
    .map((value) => (typeof value === 'string' ? value : JSON.stringify(value)))
    .join(', ');
}

/**
 * A union the client can read at once: literals as "must be one of json, csv", plain types as "must be string
 * or null". Unions of objects keep the branch error, which names the field that is wrong.
 */
function describeUnion(error: ErrorObject): string | undefined {
  const branches = (Array.isArray(error.schema) ? error.schema : []) as {
    const?: unknown;
    type?: unknown;
    properties?: unknown;
  }[];
  if (branches.length === 0) return undefined;
  if (branches.every((branch) => 'const' in branch))
    return `must be one of ${listed(branches.map((branch) => branch.const))}`;
  if (
    branches.every((branch) => typeof branch.type === 'string' && branch.properties === undefined)
  ) {
    return `must be ${branches.map((branch) => branch.type).join(' or ')}`;
  }
  return undefined;
}

function describe(errors: readonly ErrorObject[]): string {
  const first = errors[0] as ErrorObject;
  // ajv reports each branch of a failed union before the union itself; the union at the same place says it better.
  const union = errors.find(
    (error) => error.keyword === 'anyOf' && error.instancePath === first.instancePath,
  );
  const unionText = union === undefined ? undefined : describeUnion(union);
  if (unionText !== undefined) return `${pathOf(first)} ${unionText}`;
  const where = pathOf(first);
  switch (first.keyword) {
    case 'additionalProperties':
      return `${where} has an unknown field '${String(first.params.additionalProperty)}'`;
    case 'required':
      return `${where} is missing the required field '${String(first.params.missingProperty)}'`;
    case 'const':
      return `${where} must be ${listed([first.params.allowedValue])}`;
    case 'enum':
      return `${where} must be one of ${listed(first.params.allowedValues as unknown[])}`;
    case 'minLength':
      return `${where} must have at least ${String(first.params.limit)} characters`;
    case 'maxLength':
      return `${where} must have at most ${String(first.params.limit)} characters`;
    case 'minItems':
      return `${where} must have at least ${String(first.params.limit)} items`;
    case 'maxItems':
      return `${where} must have at most ${String(first.params.limit)} items`;
    case 'minimum':
      return `${where} must be at least ${String(first.params.limit)}`;
    case 'maximum':
      return `${where} must be at most ${String(first.params.limit)}`;
    case 'type':
      return `${where} must be ${String(first.params.type)}`;
    case 'pattern': {
      const description = (first.parentSchema as { description?: unknown } | undefined)
        ?.description;
      return `${where} must match ${String(first.params.pattern)}${typeof description === 'string' ? ` (${description})` : ''}`;
    }
    default:
      return `${where} ${first.message ?? 'is invalid'}`;
  }
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
      throw new AppError(
        'invalid_argument',
        `${name} must be written in decimal digits (at most 15), got ${JSON.stringify(value.slice(0, 40))}`,
      );
    }
  }
}

/** The validator from ajv alone: the reference the fast acceptor is held to (input-validation-fast.test.ts). */
export function compileAjvValidator(op: AnyOp): InputValidator {
  const fromQuery = op.http?.inputFrom === 'query';
  const ajv = fromQuery ? queryAjv : bodyAjv;
  const validate: ValidateFunction = ajv.compile(op.input as TSchema);
  const integers = fromQuery ? integerNames(op.input as TSchema) : [];
  return (raw) => {
    if (raw instanceof MalformedInput) throw new AppError('invalid_argument', raw.reason);
    assertDecimalIntegers(raw, integers);
    if (validate(raw)) return raw;
    const errors = validate.errors ?? [];
    throw new AppError(
      'invalid_argument',
      errors.length === 0 ? 'invalid request' : describe(errors),
    );
  };
}

/**
 * The op's validator: ajv, behind a plain-code acceptor where the input is of the simple shape the acceptor knows
 * (bodies only: query inputs are coerced by ajv). What the acceptor passes ajv passes unchanged; the rest is ajv's.
 */
export function compileInputValidator(op: AnyOp): InputValidator {
  const checked = compileAjvValidator(op);
  const accepts = op.http?.inputFrom === 'query' ? undefined : fastAcceptorOf(op.input as TSchema);
  if (accepts === undefined) return checked;
  return (raw) => (accepts(raw) ? raw : checked(raw));
}
