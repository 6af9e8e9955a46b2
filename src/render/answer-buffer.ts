/**
 * One reused output Buffer for answers an op writes itself from pre-encoded fragments (the validate answer).
 * A view of it is valid until the next answer is written: the transport hands it to uWS (which copies it) in the
 * same synchronous step, as json-bytes' scratch.
 *
 * When to copy in JS and when to call into the engine, measured on the 2-core VM (Node 20, load 14, so absolute
 * ns are inflated; the crossover is what matters): a byte loop cost 3-5 ns per byte and Uint8Array#set 40-50 ns
 * per call, so `set` wins from about 12 bytes; a charCodeAt loop cost 6-8 ns per character and
 * Buffer#write (latin1) 95-150 ns per call, so `write` wins from about 16 characters.
 */
import type { JsonAnswer } from '../contract/op.js';

/** Grows once to the largest answer seen; 64 KiB holds a 100-row validation answer (~35-47 KB). */
const initialBytes = 64 * 1024;
/** Fragments shorter than this are copied with a JS loop, longer ones with Uint8Array#set. */
export const loopBytesMax = 12;
/** ASCII strings shorter than this are written with a charCodeAt loop, longer ones with Buffer#write. */
export const loopCharsMax = 16;

let buffer = Buffer.allocUnsafeSlow(initialBytes);
let at = 0;

/** Starts an answer of at most `bytes` bytes (an upper bound: the writer never checks again while writing). */
export function beginAnswer(bytes: number): void {
  if (bytes > buffer.length) buffer = Buffer.allocUnsafeSlow(Math.max(buffer.length * 2, bytes));
  at = 0;
}

export function writeByte(code: number): void {
  buffer[at++] = code;
}

export function writeBytes(chunk: Uint8Array): void {
  const length = chunk.length;
  if (length > loopBytesMax) {
    buffer.set(chunk, at);
    at += length;
    return;
  }
  for (let index = 0; index < length; index++) buffer[at++] = chunk[index] as number;
}

/** A string the caller knows to be printable ASCII that JSON does not escape (an IBAN in electronic form). */
export function writeAscii(text: string): void {
  const length = text.length;
  if (length > loopCharsMax) {
    at += buffer.write(text, at, 'latin1');
    return;
  }
  for (let index = 0; index < length; index++) buffer[at++] = text.charCodeAt(index);
}

/** text[start, end), printable ASCII as writeAscii's; a span this short (a bank code) is copied in a loop. */
export function writeAsciiRange(text: string, start: number, end: number): void {
  if (end - start > loopCharsMax) {
    at += buffer.write(text.slice(start, end), at, 'latin1');
    return;
  }
  for (let index = start; index < end; index++) buffer[at++] = text.charCodeAt(index);
}

/** The answer written since beginAnswer, as a view of the reused buffer. */
export function answerView(): Uint8Array {
  return buffer.subarray(0, at);
}

/**
 * An op output that writes its own JSON (an op's runJson answer, see contract/op.ts): the REST transport
 * sends jsonView() instead of serializing the output.
 */
export abstract class WrittenJson implements JsonAnswer {
  /** The answer's JSON as UTF-8, a view of a reused buffer valid until the next call. */
  abstract jsonView(): Uint8Array;
}
