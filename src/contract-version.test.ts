// The one contract version reaches every published contract: the proto header and the OpenAPI document.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { contractVersion } from './contract-version.js';
import { isHttpOp } from './contract/op.js';
import { ops } from './ops/table.js';
import { buildOpenApi } from './transport/openapi/document.js';

test('the proto header and the OpenAPI info.version carry the contract version', () => {
  const proto = readFileSync(new URL('../proto/ibanqa/v1/ibanqa.proto', import.meta.url), 'utf8');
  assert.match(
    proto.split('\n')[0] ?? '',
    new RegExp(`version ${contractVersion.replaceAll('-', '\\-')}\\b`),
  );
  const info = buildOpenApi(ops.filter(isHttpOp))['info'] as { version: string };
  assert.equal(info.version, contractVersion);
});
