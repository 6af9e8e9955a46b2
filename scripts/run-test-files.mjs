// The test files named after `<concurrency> <times file>`, run by node:test in exactly the order given,
// `concurrency` at a time: TAP on stdout, each file's time (scripts/test-file-times.mjs) in the times file.
// Why not `node --test <files>`: Node 20's command line sorts the files it is given, so it cannot run the slow
// ones first (scripts/run-tests.mjs says why that matters); run() keeps the order. Start it with `--import tsx`:
// run() starts each file's process with this process's flags.
// Why not forceExit (which would save the ~4 s a file waits for undici's idle keep-alive socket to close after its
// service stopped): on Node 20 a file's process then exits once the tests it knows of so far are done, and tests
// registered after that are dropped without a failure (measured: two files, 8 runs, 155-175 of their 175 tests
// reported and none failed; a whole CI run reported 1,732 of 1,734 and passed; without forceExit 175 every time).
import { createWriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { run } from 'node:test';
import { tap } from 'node:test/reporters';
import testFileTimes from './test-file-times.mjs';

const [concurrency, timesFile, ...files] = process.argv.slice(2);
const stream = run({
  files: files.map((file) => resolve(file)),
  concurrency: Number(concurrency),
});
// As `node --test` exits: 1 when a test (or a whole file) failed; a failing todo test fails nothing.
stream.on('test:fail', (data) => {
  if (data.todo === undefined || data.todo === false) process.exitCode = 1;
});
stream.compose(tap).pipe(process.stdout);
stream.compose(testFileTimes).pipe(createWriteStream(timesFile));
