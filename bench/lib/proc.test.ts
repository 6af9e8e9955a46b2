import assert from 'node:assert/strict';
import { test } from 'node:test';
import { coresUsed, freePort, machineCoresBetween, machineCpu, procCpuSeconds, procMemory } from './proc.js';

function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // burn CPU so the counters move
  }
}

test('procMemory reads this process: resident, and the peak is at least the current size', () => {
  const memory = procMemory(process.pid);
  assert.ok(memory.rssMiB > 0);
  assert.ok(memory.hwmMiB >= memory.rssMiB);
});

test('procCpuSeconds and machineCpu grow while this process burns CPU', () => {
  const before = procCpuSeconds(process.pid);
  const machineBefore = machineCpu();
  spin(300);
  assert.ok(procCpuSeconds(process.pid) - before >= 0.1);
  const machine = machineCoresBetween(machineBefore, machineCpu(), 0.3);
  assert.ok(machine.busyCores >= 0.3, `busy ${machine.busyCores}`);
});

test('coresUsed divides CPU by wall time and is 0 for an empty window', () => {
  assert.equal(coresUsed(1, 3, 2), 1);
  assert.equal(coresUsed(1, 3, 0), 0);
});

test('freePort hands out a bindable port', async () => {
  const port = await freePort();
  assert.ok(Number.isInteger(port) && port > 0 && port < 65_536);
});
