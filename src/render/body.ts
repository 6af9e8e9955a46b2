import type { Rendering } from '../contract/op.js';
import { renderCsv } from './csv.js';
import { outputJsonBytes } from './json-bytes.js';

export type BodyFormat = 'json' | 'csv';

/** An op's output already serialized (by a worker): the transport sends it as is. JSON is UTF-8 bytes. */
export class RenderedBody {
  constructor(
    readonly format: BodyFormat,
    readonly body: string | Uint8Array,
  ) {}
}

/** CSV when the op renders CSV and the input asks for it, JSON otherwise. */
export function bodyFormatOf(op: Rendering, input: unknown): BodyFormat {
  return op.csv?.wanted(input) ? 'csv' : 'json';
}

export async function renderBody(
  op: Rendering,
  output: unknown,
  format: BodyFormat,
): Promise<RenderedBody> {
  if (format === 'csv' && op.csv !== undefined)
    return new RenderedBody('csv', await renderCsv(op.csv, output));
  return new RenderedBody('json', outputJsonBytes(output));
}
