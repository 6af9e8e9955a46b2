// CLI start-up: `ibanqa keys list` (an empty store) through tsx, as every call ran before, and through the bundle
// that `npm install` builds (scripts/build-cli.mjs). Wall time per run of a child process, median and range.
// Run: node --import tsx bench/cli-start.ts [runs]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const runs = Number(process.argv[2] ?? 7);
const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const bundle = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const bare = ['-e', '0'];
const dataDir = mkdtempSync(join(tmpdir(), 'ibanqa-cli-bench-'));
execFileSync(process.execPath, [
  fileURLToPath(new URL('../scripts/build-cli.mjs', import.meta.url)),
]);

function timeRuns(args: string[]): number[] {
  const times: number[] = [];
  for (let index = 0; index < runs; index++) {
    const start = process.hrtime.bigint();
    execFileSync(process.execPath, args, {
      stdio: 'ignore',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times.sort((a, b) => a - b);
}

const cases: [string, string[]][] = [
  ['node -e 0 (the floor)', bare],
  [
    'tsx: node --import tsx src/cli.ts keys list',
    ['--import', 'tsx', cli, 'keys', 'list', '--data-dir', dataDir],
  ],
  ['bundle: node dist/cli.js keys list', [bundle, 'keys', 'list', '--data-dir', dataDir]],
  ['bundle: node dist/cli.js --version', [bundle, '--version']],
];
console.log(
  `load average before: ${loadavg()
    .map((v) => v.toFixed(2))
    .join(' ')}`,
);
console.log('| command | median ms | min ms | max ms |\n| --- | --- | --- | --- |');
for (const [label, args] of cases) {
  const times = timeRuns(args);
  console.log(
    `| ${label} | ${times[Math.floor(times.length / 2)]!.toFixed(0)} | ${times[0]!.toFixed(0)} | ${times[times.length - 1]!.toFixed(0)} |`,
  );
}
console.log(
  `load average after: ${loadavg()
    .map((v) => v.toFixed(2))
    .join(' ')}`,
);
rmSync(dataDir, { recursive: true, force: true });
