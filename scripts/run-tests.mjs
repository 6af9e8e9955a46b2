// `npm test`: every *.test.ts of src, test and bench, two files at a time, then test/zz-contract last and alone.
//
// Why two at a time: on the 2-core CI machine a file spends much of its time starting (tsx compiles each file's
// imports in a fresh process) and waiting on the services, child processes and PostgreSQL it drives; one file at a
// time left a core idle and the suite near CI's 30-minute budget. IBANQA_TEST_CONCURRENCY overrides it (1 to
// debug a file's interplay with another).
// Why the slowest first: two lanes end together only if the last files to start are short ones. In path order a
// file of a minute (test/reliability/crash-durability) started near the end and ran alone while the other lane had
// nothing left. So files go out by their time in the last run that recorded it (var/test-file-times.txt, which
// this run rewrites), slowest first; files it does not name (new ones) go first, in path order, their cost being
// unknown; a fresh checkout (CI's clone) has no record of its own and reads the snapshot committed beside this
// script (scripts/test-file-times.txt). The order changes when files
// start, never what they run; scripts/run-test-files.mjs runs them in it (`node --test` would sort them again).
// Why zz-contract apart: it compares every answer the services of the whole run recorded with the OpenAPI document,
// so it must start after all of them ended; the run's record directory is named once here and handed to both.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const roots = ['src', 'test', 'bench'];
const lastFolder = 'test/zz-contract/';

function testFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (name === 'node_modules') return [];
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * Each file's seconds in the last recorded run (scripts/test-file-times.mjs), by the path it was recorded under:
 * absolute, so a file is known by the recorded path that ends with its path from the repository root.
 */
function lastTimes() {
  let text;
  try {
    text = readFileSync('var/test-file-times.txt', 'utf8');
  } catch {
    // A fresh clone (CI's) has no record of its own: the committed snapshot of one.
    text = readFileSync('scripts/test-file-times.txt', 'utf8');
  }
  return [...text.matchAll(/^ *([\d.]+) s {2}(.+)$/gm)].map(([, seconds, path]) => ({
    path,
    seconds: Number(seconds),
  }));
}

/** Slowest first by the recorded times; files without one first; ties (and no times at all) in path order. */
function slowestFirst(files, recorded) {
  const cost = new Map(
    files.map((file) => [
      file,
      recorded.find(({ path }) => path === file || path.endsWith(`/${file}`))?.seconds ??
        Number.POSITIVE_INFINITY,
    ]),
  );
  return [...files].sort((a, b) => cost.get(b) - cost.get(a) || (a < b ? -1 : 1));
}

function run(files, concurrency, env) {
  const args = [
    '--import',
    'tsx',
    'scripts/run-test-files.mjs',
    String(concurrency),
    `var/test-file-times${concurrency === 1 ? '-last' : ''}.txt`,
    ...files,
  ];
  return spawnSync(process.execPath, args, { stdio: 'inherit', env }).status ?? 1;
}

const files = slowestFirst(roots.flatMap(testFiles), lastTimes());
const first = files.filter((file) => !file.startsWith(lastFolder));
const last = files.filter((file) => file.startsWith(lastFolder));
const concurrency = Number(process.env.IBANQA_TEST_CONCURRENCY ?? 2);
const observed = mkdtempSync(join(tmpdir(), 'ibanqa-observed-statuses-'));
const env = { ...process.env, IBANQA_OBSERVED_STATUSES_DIR: observed };
const status = run(first, concurrency, env);
const lastStatus = run(last, 1, env);
rmSync(observed, { recursive: true, force: true });
process.exit(status !== 0 ? status : lastStatus);
