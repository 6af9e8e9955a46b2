#!/usr/bin/env node
// `npx ibanqa ...`: the service is TypeScript run through tsx, and piscina's worker threads inherit the
// parent's --import flags, so the CLI is re-executed under `node --import tsx` rather than registered here.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
const child = spawn(process.execPath, ['--import', 'tsx', cli, ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
