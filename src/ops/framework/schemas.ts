import { Type, type TSchema } from '@sinclair/typebox';
import { limits } from '../../limits.js';

/** Shared request pieces, so every op states a bound the same way (and OpenAPI shows it). */
export const countryField = Type.String({
  minLength: 1,
  maxLength: limits.countryInputCharsMax,
  description: 'English short name (case-insensitive, common variants) or ISO 3166-1 alpha-2 code',
  examples: ['DE', 'Germany'],
});

export const outputField = Type.Union([Type.Literal('json'), Type.Literal('csv')], {
  default: 'json',
  description: 'Response format: json (default) or csv (text/csv with a header row)',
});

export const datasetSeedField = Type.String({
  minLength: 1,
  maxLength: limits.datasetSeedCharsMax,
  description: 'Makes output reproducible: the same seed and parameters give the same rows',
});

/** Strict objects: an unknown field is a 400, not silently ignored. */
export function strictObject<T extends Record<string, TSchema>>(
  properties: T,
  description?: string,
) {
  return Type.Object(properties, {
    additionalProperties: false,
    ...(description === undefined ? {} : { description }),
  });
}

export const nullableString = (description: string) =>
  Type.Union([Type.String(), Type.Null()], { description });

export const errorSchema = Type.Object(
  {
    error: Type.String({
      description:
        'Stable machine code (a few values are fixed by the spec, e.g. "Invalid country")',
    }),
    message: Type.Optional(Type.String()),
    request_id: Type.Optional(Type.String()),
  },
  { additionalProperties: true, description: 'The Error object returned by every failed request' },
);
