import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  coresUsed,
  freePort,
  machineCoresBetween,
  machineCpu,
  procCpuSeconds,
  procMemory,
} from './proc.js';

/** Burns `seconds` of this process's CPU time (by its own counter, process.cpuUsage, not the wall clock). */
function burnCpu(seconds: number): void {
  const start = process.cpuUsage();
  let x = 0;
  for (;;) {
    for (let i = 0; i < 100_000; i++) x = (x * 31 + i) | 0;
    const used = process.cpuUsage(start);
    if ((used.user + used.system) / 1e6 >= seconds) break;
  }
  if (x === 0.5) console.log(x); // keep the loop from being optimised away
}

test('procMemory reads this process: resident, and the peak is at least the current size', () => {
  const memory = procMemory(process.pid);
  assert.ok(memory.rssMiB > 0);
  assert.ok(memory.hwmMiB >= memory.rssMiB);
});

test('procCpuSeconds and machineCpu count the CPU time this process burns (checked against process.cpuUsage)', () => {
  const before = procCpuSeconds(process.pid);
  const machineBefore = machineCpu();
  burnCpu(0.3);
  const machineAfter = machineCpu();
  // /proc counts in clock ticks (10 ms): allow a few ticks of rounding on each side.
  assert.ok(
    procCpuSeconds(process.pid) - before >= 0.25,
    'this process: at least the CPU time it burned',
  );
  assert.ok(
    machineAfter.busySeconds - machineBefore.busySeconds >= 0.25,
    'the machine: busy at least as long as this process',
  );
  // machineCoresBetween divides by the window it is given: 0.6 busy seconds over 2 s is 0.3 cores.
  assert.deepEqual(
    machineCoresBetween(
      { busySeconds: 1, stealSeconds: 0.1 },
      { busySeconds: 1.6, stealSeconds: 0.3 },
      2,
    ),
    { busyCores: 0.3, stealCores: 0.1 },
  );
});

test('coresUsed divides CPU by wall time and is 0 for an empty window', () => {
  assert.equal(coresUsed(1, 3, 2), 1);
  assert.equal(coresUsed(1, 3, 0), 0);
});

test('freePort hands out a bindable port', async () => {
  const port = await freePort();
  assert.ok(Number.isInteger(port) && port > 0 && port < 65_536);
});
