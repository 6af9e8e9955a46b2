import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { machineFacts, type MachineFacts } from './machine.js';

export const resultsDir = fileURLToPath(new URL('../results/', import.meta.url));

/** Every result file carries the machine it was measured on: figures without it mean nothing. */
export interface ResultFile<T> {
  readonly name: string;
  readonly machine: MachineFacts;
  readonly data: T;
}

export function writeResult<T>(name: string, data: T): string {
  mkdirSync(resultsDir, { recursive: true });
  const path = `${resultsDir}${name}.json`;
  const file: ResultFile<T> = { name, machine: machineFacts(), data };
  writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`);
  return path;
}

export function readResult<T>(name: string): ResultFile<T> | undefined {
  const path = `${resultsDir}${name}.json`;
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, 'utf8')) as ResultFile<T>;
}

/** Rounds for reports: figures from a noisy 2-core VM do not deserve more digits. */
export function round(value: number, digits = 0): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** The middle value (the upper one of an even count); NaN for none. */
export function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
}
