import { createHash } from 'node:crypto';
import { assert, unreachable } from '../assert.js';

/**
 * Seeded, counter-based randomness (DESIGN.md "Determinism").
 * Row i of a seeded request is a pure function of (request key, i): any worker can produce any
 * slice of rows and the result matches a single-threaded run. Changing anything in this file
 * changes every seeded output ever published: it is a breaking change, pinned by golden tests.
 */
export interface Rng {
  nextU32(): number;
}

/** 128-bit request key: SHA-256 of the seed and the canonical request parameters, first 16 bytes. */
export type RequestKey = readonly [number, number, number, number];

export function requestKeyOf(seed: string, canonicalParameters: string): RequestKey {
  const digest = createHash('sha256')
    .update(`ibanqa/v1\u0000${seed}\u0000${canonicalParameters}`)
    .digest();
  return [
    digest.readUInt32BE(0),
    digest.readUInt32BE(4),
    digest.readUInt32BE(8),
    digest.readUInt32BE(12),
  ];
}

/** A key from 16 caller-supplied random bytes (unseeded requests draw them with crypto). */
export function requestKeyFromBytes(bytes: Uint8Array): RequestKey {
  assert(bytes.length >= 16, 'request key needs 16 bytes');
  const view = new DataView(bytes.buffer, bytes.byteOffset, 16);
  return [view.getUint32(0), view.getUint32(4), view.getUint32(8), view.getUint32(12)];
}

/** murmur3 fmix32: spreads the row index over all bits before it seeds the generator. */
function mix32(value: number): number {
  let h = value >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const warmUpRounds = 12; // sfc32's authors discard the first outputs so seeds that differ in one bit diverge

/** The generator for row `rowIndex` of a request (also used with stream names as extra salt). */
export function rowRng(key: RequestKey, rowIndex: number, stream = 0): Rng {
  assert(Number.isInteger(rowIndex) && rowIndex >= 0, 'row index is a non-negative integer');
  const salt = mix32(rowIndex ^ mix32(stream + 0x9e3779b9));
  let a = (key[0] ^ salt) >>> 0;
  let b = (key[1] ^ mix32(salt + 1)) >>> 0;
  let c = (key[2] ^ mix32(salt + 2)) >>> 0;
  let counter = (key[3] ^ mix32(salt + 3)) >>> 0;
  const rng: Rng = {
    // sfc32 (Chris Doty-Humphrey's Small Fast Counting generator), 32-bit arithmetic only.
    nextU32() {
      const t = (((a + b) >>> 0) + counter) >>> 0;
      counter = (counter + 1) >>> 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) >>> 0;
      c = ((c << 21) | (c >>> 11)) >>> 0;
      c = (c + t) >>> 0;
      return t;
    },
  };
  for (let round = 0; round < warmUpRounds; round++) rng.nextU32();
  return rng;
}

/** Uniform integer in [0, bound). `% bound` alone would favour small values. */
export function rngBelow(rng: Rng, bound: number): number {
  assert(Number.isInteger(bound) && bound > 0, 'bound is a positive integer');
  assert(bound <= 2 ** 32, 'bound fits the generator range');
  const acceptedMax = 2 ** 32 - (2 ** 32 % bound);
  for (let attempt = 0; attempt < 64; attempt++) {
    const value = rng.nextU32();
    if (value < acceptedMax) return value % bound;
  }
  return unreachable('rngBelow rejected 64 draws in a row');
}

export function rngPick<T>(rng: Rng, items: readonly T[]): T {
  assert(items.length > 0, 'cannot pick from an empty list');
  return items[rngBelow(rng, items.length)] as T;
}

const digits = '0123456789';
export function rngDigits(rng: Rng, length: number): string {
  let out = '';
  for (let index = 0; index < length; index++) out += digits.charAt(rngBelow(rng, 10));
  return out;
}
