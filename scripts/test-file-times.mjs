// A node:test reporter that `npm test` runs beside TAP: each test file's time (its top-level tests' durations),
// slowest first, written to var/test-file-times.txt, so the suite's cost against CI's 30-minute budget can be
// read per file instead of guessed.
export default async function* testFileTimes(source) {
  const byFile = new Map();
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0) {
      const file = event.data.file ?? '(no file)';
      byFile.set(file, (byFile.get(file) ?? 0) + (event.data.details?.duration_ms ?? 0));
    }
  }
  const rows = [...byFile].sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, ms]) => sum + ms, 0);
  yield `${(total / 1000).toFixed(1)} s in ${rows.length} files\n`;
  for (const [file, ms] of rows) yield `${(ms / 1000).toFixed(1).padStart(8)} s  ${file}\n`;
}
