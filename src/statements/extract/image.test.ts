// The OCR engine (a tesseract.js worker thread with its model) exists only while images come: none before the first
// image, one while they are read, none after the idle time. Not a timing test: the idle time is set short and the
// release is awaited. The thread is counted by the OS (/proc/self/task), not by our own bookkeeping alone.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { statementPng } from '../../../test/statements/corpus.js';
import { configureOcr, extractImage, ocrRunning } from './image.js';

const idleMs = 500;
const releaseWithinMs = 30_000;

const osThreads = () => readdirSync('/proc/self/task').length;

async function readPage(text: string): Promise<string> {
  const facts = await extractImage(await statementPng([text]), 'png');
  return facts.lines.map((line) => line.text).join('\n');
}

async function released(): Promise<void> {
  const deadline = Date.now() + releaseWithinMs;
  while (ocrRunning()) {
    assert.ok(Date.now() < deadline, `OCR engine still held ${releaseWithinMs} ms after idle`);
    await sleep(50);
  }
}

test('the OCR engine starts with the first image and is released, thread and all, after the idle time', async () => {
  configureOcr({ idleMs });
  assert.equal(ocrRunning(), false, 'no OCR engine before an image');
  assert.match(await readPage('OPENING BALANCE 1234.56'), /OPENING BALANCE 1234\.56/);
  assert.equal(ocrRunning(), true, 'the engine stays for the next image');
  const withEngine = osThreads();
  await released();
  // terminate() ends the tesseract worker thread; the OS thread goes shortly after.
  const deadline = Date.now() + releaseWithinMs;
  while (osThreads() >= withEngine) {
    assert.ok(Date.now() < deadline, 'the OCR worker thread did not end');
    await sleep(50);
  }
  // A later image starts a new engine and reads as well as the first.
  assert.match(await readPage('CLOSING BALANCE 789.00'), /CLOSING BALANCE 789\.00/);
  await released();
});
