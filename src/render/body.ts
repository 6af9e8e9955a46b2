import type { AnyOp } from '../ops/framework/op.js';
import { renderCsv } from './csv.js';
import { rowsJson } from './rows-json.js';

export type BodyFormat = 'json' | 'csv';

/** An op's output already serialized (by a worker): the transport sends it as is. */
export class RenderedBody {
  constructor(
    readonly format: BodyFormat,
    readonly body: string,
  ) {}
}

/** CSV when the op renders CSV and the input asks for it, JSON otherwise. */
export function bodyFormatOf(op: AnyOp, input: unknown): BodyFormat {
  return op.csv?.wanted(input) ? 'csv' : 'json';
}

/** JSON identical to JSON.stringify; arrays of rows (also as top-level fields) go through rowsJson. */
export function outputJson(output: unknown): string {
  if (Array.isArray(output)) return rowsJson(output);
  if (output === null || typeof output !== 'object') return JSON.stringify(output);
  let out = '{';
  for (const [key, value] of Object.entries(output)) {
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${Array.isArray(value) ? rowsJson(value) : JSON.stringify(value)}`;
  }
  return `${out}}`;
}

export async function renderBody(op: AnyOp, output: unknown, format: BodyFormat): Promise<RenderedBody> {
  if (format === 'csv' && op.csv !== undefined) return new RenderedBody('csv', await renderCsv(op.csv, output));
  return new RenderedBody('json', outputJson(output));
}
