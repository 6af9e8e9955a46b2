// The test files named after `<concurrency> <times file>`, run by node:test in exactly the order given,
// `concurrency` at a time: TAP on stdout, each file's time (scripts/test-file-times.mjs) in the times file.
// Why not `node --test <files>`: Node 20's command line sorts the files it is given, so it cannot run the slow
// ones first (scripts/run-tests.mjs says why that matters); run() keeps the order. Start it with `--import tsx`:
// run() starts each file's process with this process's flags.
// Why forceExit: a file's process ends once its tests and `after` hooks are done, instead of waiting for its event
// loop to empty. A file that fetched from a service it ran in its own process waited 4 s more for nothing:
// the client's keep-alive socket (undici closes an idle one after 4 s) held the uWS loop open after the service
// had stopped (measured: a file that started a service and sent one fetch exited 7.4 s in, 3.4 s with forceExit;
// three service files, one at a time, 34.7 s -> 25.5 s for the same test time). Nothing a test checks happens after its hooks; child processes a test started are killed on exit
// (bench/lib/child.ts), and the answers recorded for test/zz-contract are written as they are seen.
import { createWriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { run } from 'node:test';
import { tap } from 'node:test/reporters';
import testFileTimes from './test-file-times.mjs';

const [concurrency, timesFile, ...files] = process.argv.slice(2);
const stream = run({
  files: files.map((file) => resolve(file)),
  concurrency: Number(concurrency),
  forceExit: true,
});
// As `node --test` exits: 1 when a test (or a whole file) failed; a failing todo test fails nothing.
stream.on('test:fail', (data) => {
  if (data.todo === undefined || data.todo === false) process.exitCode = 1;
});
stream.compose(tap).pipe(process.stdout);
stream.compose(testFileTimes).pipe(createWriteStream(timesFile));
