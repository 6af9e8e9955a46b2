// The layer rules bite: dependency-cruiser, run as `npm run lint:deps` runs it (the repository's config), fails a
// tree with an upward import, an import circle, an op that imports a store or a file in no layer, and passes the
// same tree without them.
// The trees are written to a temporary directory laid out like the repository (src/...), never into src/ itself.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const wrapper = join(root, 'tools/lint/depcruise.mjs');
const config = join(root, '.dependency-cruiser.mjs');

interface Outcome {
  readonly failed: boolean;
  readonly rules: readonly string[];
}

const made: string[] = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** Cruises a tree of files (path -> text) with the repository's rules; which rules it broke, if any. */
async function cruise(files: Readonly<Record<string, string>>): Promise<Outcome> {
  const dir = mkdtempSync(join(tmpdir(), 'ibanqa-layers-'));
  made.push(dir);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true } }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  // `err`, the output lint:deps uses: it is the one that sets the exit code.
  const args = [wrapper, '--config', config, '--output-type', 'err', 'src'];
  try {
    const { stdout } = await run(process.execPath, args, { cwd: dir });
    return { failed: false, rules: rulesOf(stdout) };
  } catch (error) {
    return { failed: true, rules: rulesOf((error as { stdout: string }).stdout) };
  }
}

/** The rule names of the report's lines, e.g. "  error layer-domain: src/domain/a.ts → src/ops/b.ts". */
function rulesOf(report: string): string[] {
  return [...report.matchAll(/^\s*error ([\w-]+):/gm)].map((match) => match[1] as string).sort();
}

const ops = "import { parse } from '../domain/parse.js';\nexport const op = parse;\n";
const domain = 'export const parse = (text: string): number => text.length;\n';

describe('the layer rules (npm run lint:deps)', () => {
  it('pass a tree whose imports point down', async () => {
    const outcome = await cruise({ 'src/domain/parse.ts': domain, 'src/ops/op.ts': ops });
    assert.deepEqual(outcome, { failed: false, rules: [] });
  });

  it('fail an import from a lower layer into a higher one', async () => {
    const outcome = await cruise({
      'src/domain/parse.ts': `import { op } from '../ops/op.js';\n${domain}export const again = op;\n`,
      'src/ops/op.ts': 'export const op = 1;\n',
    });
    assert.deepEqual(outcome, { failed: true, rules: ['layer-domain'] });
  });

  it('fail files that import each other in a circle', async () => {
    const outcome = await cruise({
      'src/domain/a.ts': "import { b } from './b.js';\nexport const a = (): number => b() + 1;\n",
      'src/domain/b.ts': "import { a } from './a.js';\nexport const b = (): number => a() - 1;\n",
    });
    assert.equal(outcome.failed, true);
    assert.deepEqual([...new Set(outcome.rules)], ['no-circular']);
  });

  it('fail an op that imports a store instead of using a port', async () => {
    const outcome = await cruise({
      'src/accounts/meter.ts': 'export class Meter {}\n',
      'src/ops/usage.ts':
        "import { Meter } from '../accounts/meter.js';\nexport const m = Meter;\n",
    });
    assert.deepEqual(outcome, { failed: true, rules: ['ops-reach-state-through-ports'] });
  });

  it('fail a file in a folder the layers do not place', async () => {
    const outcome = await cruise({
      'src/domain/parse.ts': domain,
      'src/gadgets/use.ts':
        "import { parse } from '../domain/parse.js';\nexport const use = parse;\n",
    });
    assert.deepEqual(outcome, { failed: true, rules: ['layer-unplaced'] });
  });

  it('count a type-only import like any other', async () => {
    const outcome = await cruise({
      'src/render/body.ts': "import type { Op } from '../ops/op.js';\nexport type Body = Op;\n",
      'src/ops/op.ts': 'export interface Op {\n  readonly name: string;\n}\n',
    });
    assert.deepEqual(outcome, { failed: true, rules: ['layer-render'] });
  });
});
