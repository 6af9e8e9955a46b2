// `npm test`: every *.test.ts of src, test and bench, two files at a time, then test/zz-contract last and alone.
//
// Why two at a time: on the 2-core CI machine a file spends much of its time starting (tsx compiles each file's
// imports in a fresh process) and waiting on the services, child processes and PostgreSQL it drives; one file at a
// time left a core idle and the suite near CI's 30-minute budget. IBANQA_TEST_CONCURRENCY overrides it (1 to
// debug a file's interplay with another).
// Why zz-contract apart: it compares every answer the services of the whole run recorded with the OpenAPI document,
// so it must start after all of them ended; the run's record directory is named once here and handed to both.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
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

function run(files, concurrency, env) {
  const args = [
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-reporter=tap',
    '--test-reporter-destination=stdout',
    '--test-reporter=./scripts/test-file-times.mjs',
    `--test-reporter-destination=var/test-file-times${concurrency === 1 ? '-last' : ''}.txt`,
    ...files,
  ];
  return spawnSync(process.execPath, args, { stdio: 'inherit', env }).status ?? 1;
}

const files = roots.flatMap(testFiles).sort();
const first = files.filter((file) => !file.startsWith(lastFolder));
const last = files.filter((file) => file.startsWith(lastFolder));
const concurrency = Number(process.env.IBANQA_TEST_CONCURRENCY ?? 2);
const observed = mkdtempSync(join(tmpdir(), 'ibanqa-observed-statuses-'));
const env = { ...process.env, IBANQA_OBSERVED_STATUSES_DIR: observed };
const status = run(first, concurrency, env);
const lastStatus = run(last, 1, env);
rmSync(observed, { recursive: true, force: true });
process.exit(status !== 0 ? status : lastStatus);
