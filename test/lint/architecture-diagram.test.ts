// The layer diagram of ARCHITECTURE.md and the layers dependency-cruiser enforces (.dependency-cruiser.mjs) are the
// same list in the same order: every path the diagram names sits in the layer its line claims, and reading the
// diagram top to bottom meets the enforced layers from the top one down, none skipped, none out of order.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface Layer {
  readonly name: string;
  readonly path: string;
}

/** The paths each diagram line starts with ("src/registry/, src/signing/   read-only data" -> two paths). */
function diagramPaths(): string[][] {
  const text = readFileSync(`${root}ARCHITECTURE.md`, 'utf8');
  const section = text.slice(text.indexOf('## Layers'));
  const block = /```\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block !== undefined, 'ARCHITECTURE.md has a Layers diagram');
  return block
    .split('\n')
    .filter((line) => /^\S/.test(line))
    .map((line) =>
      (/^(\S+(?:, ?\S+)*)/.exec(line)?.[1] ?? '')
        .split(/, ?/)
        .filter((path) => path !== '')
        .map((path) => (path.includes('/') || path.endsWith('.ts') ? path : `src/${path}`)),
    );
}

/** A diagram path as a file the layer patterns can match: a folder stands for a file inside it. */
function sampleFile(path: string): string {
  if (path.endsWith('/')) return `${path}x.ts`;
  return path.replace('*', 'x');
}

test('the ARCHITECTURE.md layer diagram lists the enforced layers, top to bottom', async () => {
  const { layers } = (await import(`${root}.dependency-cruiser.mjs`)) as {
    layers: readonly Layer[];
  };
  const seen: string[] = [];
  for (const paths of diagramPaths()) {
    for (const path of paths) {
      const file = sampleFile(path);
      const layer = layers.find((candidate) => new RegExp(candidate.path).test(file));
      assert.ok(layer !== undefined, `${path} (diagram) is in no enforced layer`);
      if (seen.at(-1) !== layer.name) seen.push(layer.name);
    }
  }
  assert.deepEqual(
    seen,
    [...layers].reverse().map((layer) => layer.name),
    'diagram order (top to bottom) against .dependency-cruiser.mjs (reversed)',
  );
});
