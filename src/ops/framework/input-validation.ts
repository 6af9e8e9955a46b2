import type { TSchema } from '@sinclair/typebox';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { AppError } from '../../errors.js';
import type { AnyOp } from './op.js';

/**
 * Request validation from the same TypeBox declarations that feed the OpenAPI document.
 * Bodies are validated strictly (no coercion: a JSON string is not an integer); query strings are
 * text by nature, so query inputs coerce "25" to 25 and nothing else.
 */
// verbose: errors carry their schema, so a union of literals can be told as the values it allows.
const bodyAjv = new Ajv({ allErrors: false, useDefaults: true, coerceTypes: false, strict: false, verbose: true });
const queryAjv = new Ajv({ allErrors: false, useDefaults: true, coerceTypes: true, strict: false, verbose: true });

function pathOf(error: ErrorObject): string {
  return error.instancePath === '' ? 'request' : error.instancePath.slice(1).replaceAll('/', '.');
}

function listed(values: readonly unknown[]): string {
  return values.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))).join(', ');
}

/**
 * A union the client can read at once: literals as "must be one of json, csv", plain types as "must be string
 * or null". Unions of objects keep the branch error, which names the field that is wrong.
 */
function describeUnion(error: ErrorObject): string | undefined {
  const branches = (Array.isArray(error.schema) ? error.schema : []) as { const?: unknown; type?: unknown; properties?: unknown }[];
  if (branches.length === 0) return undefined;
  if (branches.every((branch) => 'const' in branch)) return `must be one of ${listed(branches.map((branch) => branch.const))}`;
  if (branches.every((branch) => typeof branch.type === 'string' && branch.properties === undefined)) {
    return `must be ${branches.map((branch) => branch.type).join(' or ')}`;
  }
  return undefined;
}

function describe(errors: readonly ErrorObject[]): string {
  const first = errors[0] as ErrorObject;
  // ajv reports each branch of a failed union before the union itself; the union at the same place says it better.
  const union = errors.find((error) => error.keyword === 'anyOf' && error.instancePath === first.instancePath);
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
      const description = (first.parentSchema as { description?: unknown } | undefined)?.description;
      return `${where} must match ${String(first.params.pattern)}${typeof description === 'string' ? ` (${description})` : ''}`;
    }
    default:
      return `${where} ${first.message ?? 'is invalid'}`;
  }
}

export type InputValidator = (raw: unknown) => unknown;

export function compileInputValidator(op: AnyOp): InputValidator {
  const ajv = op.http?.inputFrom === 'query' ? queryAjv : bodyAjv;
  const validate: ValidateFunction = ajv.compile(op.input as TSchema);
  return (raw) => {
    if (validate(raw)) return raw;
    const errors = validate.errors ?? [];
    throw new AppError('invalid_argument', errors.length === 0 ? 'invalid request' : describe(errors));
  };
}
