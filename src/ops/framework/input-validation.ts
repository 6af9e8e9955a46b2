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

export function compileInputValidator(op: AnyOp): InputValidator {
  const ajv = op.http?.inputFrom === 'query' ? queryAjv : bodyAjv;
  const validate: ValidateFunction = ajv.compile(op.input as TSchema);
  return (raw) => {
    if (validate(raw)) return raw;
    const first = validate.errors?.[0];
    throw new AppError('invalid_argument', first === undefined ? 'invalid request' : describe(first));
  };
}
