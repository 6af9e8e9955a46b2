// Lints the OpenAPI document the service serves (built in code from the op table, as GET /api/v1/openapi.json
// answers it) with Redocly's OpenAPI 3.1 linter: the document is written to a temporary file, linted with the
// rules of redocly.yaml, and the file removed. Exit status: the linter's.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isHttpOp } from '../src/ops/framework/op.js';
import { ops } from '../src/ops/table.js';
import { buildOpenApi } from '../src/transport/openapi/document.js';

const dir = mkdtempSync(join(tmpdir(), 'ibanqa-openapi-'));
const file = join(dir, 'openapi.json');
try {
  writeFileSync(file, JSON.stringify(buildOpenApi(ops.filter(isHttpOp)), null, 2));
  const config = fileURLToPath(new URL('../redocly.yaml', import.meta.url));
  const lint = spawnSync(
    'npx',
    ['--no-install', 'redocly', 'lint', file, '--config', config, ...process.argv.slice(2)],
    { stdio: 'inherit' },
  );
  process.exitCode = lint.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
