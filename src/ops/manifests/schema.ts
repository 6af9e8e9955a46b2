import { Type } from '@sinclair/typebox';
import { defineOp } from '../framework/op.js';
import { strictObject } from '../framework/schemas.js';
import { manifestJsonSchema } from './schemas.js';

export const manifestSchemaDocument = defineOp({
  name: 'manifest.schema',
  needs: [] as const,
  runsOn: 'main',
  tag: 'Fixture manifests',
  summary: 'JSON Schema 2020-12 of service-fixture-manifest/1.0',
  description:
    'The manifest format as JSON Schema 2020-12. Served at /fixture-manifest/schema/1.0 without the /api/v1 prefix, as the ' +
    'spec writes the path, and under /api/v1. No key, no credits.',
  http: {
    method: 'GET',
    path: '/fixture-manifest/schema/1.0',
    inputFrom: 'query',
    unprefixedAlias: true,
  },
  grpc: {
    method: 'FixtureManifestSchema',
    wrap: 'object',
    toMessage: (output) => ({ schema_json: JSON.stringify(output) }),
  },
  access: 'none',
  input: strictObject({}),
  output: Type.Object(
    { $schema: Type.String(), $id: Type.String() },
    { additionalProperties: true },
  ),
  cost: () => ({}),
  rows: () => 1,
  run: () => manifestJsonSchema(),
});
