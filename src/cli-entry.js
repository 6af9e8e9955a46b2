#!/usr/bin/env node
// `npx ibanqa ...`. Every command but `serve` and `mcp` runs the bundle that `npm install` builds (scripts/build-cli.mjs),
// which starts without transpiling TypeScript. `serve` runs src/cli.ts under `node --import tsx`: piscina's
// worker threads inherit the parent's --import flags and load workers/ops.ts. Without a bundle, or when a
// bundled source is newer than it (a working copy being edited), the CLI falls back to tsx too.
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);
const bundle = fileURLToPath(new URL('dist/cli.js', root));

function bundleIsCurrent() {
  try {
    const builtMs = statSync(bundle).mtimeMs;
    const { inputs } = JSON.parse(readFileSync(new URL('dist/cli-inputs.json', root), 'utf8'));
    return inputs.every((input) => statSync(new URL(input, root)).mtimeMs <= builtMs);
  } catch {
    return false; // no bundle, or a bundled source is gone
  }
}

const args = process.argv.slice(2);
// `mcp` runs the service in process, pool included, so it needs tsx for the workers as `serve` does.
if (args[0] !== 'serve' && args[0] !== 'mcp' && bundleIsCurrent()) {
  await import(bundle);
} else {
  const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
