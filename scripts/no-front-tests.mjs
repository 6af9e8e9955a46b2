// Lists the test files that never load the uWS REST front (directly or through any relative import), so they
// can run on a Node whose ABI no loadable uWS build ships: `npm run test:node24`.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const roots = ['src', 'test', 'bench'];
const frontMarkers = [/from 'uWebSockets\.js'/, /uws-build\.js'/];
const importPattern = /(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g;

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

const needsFront = new Map();
function loadsFront(file, seen = new Set()) {
  if (needsFront.has(file)) return needsFront.get(file);
  if (seen.has(file)) return false;
  seen.add(file);
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  let result = frontMarkers.some((marker) => marker.test(text));
  for (const match of text.matchAll(importPattern)) {
    if (result) break;
    const target = resolve(dirname(file), match[1]).replace(/\.js$/, '.ts');
    result = loadsFront(target, seen);
  }
  needsFront.set(file, result);
  return result;
}

const tests = roots
  .flatMap(walk)
  .filter((file) => file.endsWith('.test.ts'))
  .sort();
process.stdout.write(`${tests.filter((file) => !loadsFront(resolve(file))).join('\n')}\n`);
