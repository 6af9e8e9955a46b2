// Every op of the table stays inside what it declared: pool-eligible ops need only what a worker has,
// per-key state stays on the main thread, and no op reads the wall clock or writes the registry.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { poolCapabilities, type Capability } from '../../src/contract/capabilities.js';
import type { AnyOp } from '../../src/contract/op.js';
import { ops } from '../../src/ops/table.js';
import { ContextFactory } from '../../src/service/context.js';
import { createMemoryDirectory } from '../../src/registry/memory-directory.js';

const known: readonly Capability[] = [
  'requestKey',
  'bank',
  'routing',
  'registry',
  'registryIndex',
  'watches',
  'usage',
  'profileProvider',
  'manifestKeys',
  'statements',
];
const opsDir = fileURLToPath(new URL('../../src/ops/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

describe('the op table and its capabilities', () => {
  it('every op declares known capabilities, each once', () => {
    for (const op of ops) {
      for (const need of op.needs)
        assert.ok(known.includes(need), `${op.name}: unknown capability ${need}`);
      assert.equal(new Set(op.needs).size, op.needs.length, `${op.name}: a capability named twice`);
    }
  });

  it('an op that may run in the pool needs only what a pool worker has', () => {
    for (const op of ops.filter((candidate) => candidate.runsOn === 'any')) {
      const missing = op.needs.filter((need) => !poolCapabilities.has(need));
      assert.deepEqual(missing, [], `${op.name} runs in the pool but needs ${missing.join(', ')}`);
    }
  });

  it('ops with per-key state run on the main thread', () => {
    const stateful = ops.filter((op) => op.needs.includes('watches') || op.needs.includes('usage'));
    assert.ok(stateful.length >= 4, 'the watchlist ops are in the table');
    for (const op of stateful) assert.equal(op.runsOn, 'main', op.name);
  });

  it('no op source reads the wall clock, opens LMDB or reaches the registry store behind its reader', () => {
    for (const file of sourceFiles(opsDir)) {
      const text = readFileSync(file, 'utf8');
      assert.doesNotMatch(
        text,
        /new Date\(\)|Date\.now\(\)/,
        `${file}: take the time from context.now()`,
      );
      assert.doesNotMatch(
        text,
        /from 'lmdb'|registry-store\.js'|lmdb-directory\.js'/,
        `${file}: use the declared capabilities`,
      );
    }
  });
});

describe('ContextFactory', () => {
  const op = ops.find((candidate) => candidate.name === 'iban.validate') as AnyOp;
  const base = {
    requestKey: new Uint8Array(32) as never,
    caller: { keyId: null, plan: null, paid: false },
    rowStart: 0,
  };

  it('gives an op exactly its declared capabilities and throws on any other', () => {
    const bank = createMemoryDirectory([]);
    const context = new ContextFactory({ bank }, () => new Date(0), 'test thread').contextFor(
      op,
      base,
    ) as unknown as Record<string, unknown>;
    assert.equal(context['bank'], bank);
    assert.equal((context['now'] as () => Date)().getTime(), 0);
    assert.throws(
      () => context['registry'],
      /iban\.validate used the capability 'registry' without declaring it/,
    );
  });

  it('fails loudly when a thread lacks a capability the op declared', () => {
    const watchOp = ops.find((candidate) => candidate.name === 'registry.watchlists.list') as AnyOp;
    const factory = new ContextFactory(
      { bank: createMemoryDirectory([]) },
      () => new Date(),
      'pool worker',
    );
    assert.throws(
      () => factory.contextFor(watchOp, base),
      /needs the capability 'registry', which a pool worker does not have/,
    );
  });
});
