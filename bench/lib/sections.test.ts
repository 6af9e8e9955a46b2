import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { markedSections, writeSection } from './sections.js';

test('writeSection replaces only its own section and markedSections finds every section', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sections-'));
  const file = join(dir, 'RESULTS.md');
  writeFileSync(file, '# Report\n\n<!-- a:start -->\nold a\n<!-- a:end -->\n\ntext\n');
  writeSection(file, 'b', 'new b');
  writeSection(file, 'a', 'new a');
  const text = readFileSync(file, 'utf8');
  assert.match(text, /new a/);
  assert.doesNotMatch(text, /old a/);
  assert.match(text, /text/);
  assert.deepEqual(
    markedSections(text).map((s) => s.split('\n')[1]),
    ['new a', 'new b'],
  );
  rmSync(dir, { recursive: true, force: true });
});
