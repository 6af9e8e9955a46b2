import { Type, type Static } from '@sinclair/typebox';
import { AppError } from '../../errors.js';
import type { RegistryReader } from '../../registry/store/registry-reader.js';
import type { StoredRecord } from '../../registry/store/types.js';
import { envelopeOf, envelopeSchemas, seesProvenance, type Envelope } from './common.js';
import { recordViewSchema, RecordViews, type RecordView } from './bank-views.js';
import { visibilityOf } from './visibility.js';
import { defineOp } from '../framework/op.js';
import { limits } from '../../limits.js';
import { strictObject } from '../framework/schemas.js';

export const recordInput = strictObject({
  record_id: Type.Integer({
    minimum: limits.registry.recordIdMin,
    description: 'Registry record id (integer, at least 1)',
  }),
});

/** The current record, or a 404 that says whether the id never existed or the record left the current data. */
export function currentRecordOrThrow(registry: RegistryReader, recordId: number): StoredRecord {
  const record = registry.record(recordId);
  if (record !== undefined) return record;
  const name = registry.recordName(recordId);
  if (name === undefined) throw new AppError('not_found', `No registry record ${recordId}`);
  throw new AppError(
    'not_found',
    `Registry record ${recordId} (${name.source_id} ${name.record_key}) is not in its source's current snapshot; see /registry/time-machine for its history`,
  );
}

export type RecordOutput = Envelope & { readonly record: RecordView };

export const bankRecord = defineOp({
  name: 'bank.record',
  needs: ['registry', 'registryIndex'] as const,
  runsOn: 'any',
  tag: 'Bank intelligence',
  summary: 'Read one registry record with its parent relationships',
  description:
    'The current record with its published fields and parent relationships (GLEIF relationship records, SIX head office), ' +
    "each resolved to the parent's record where the registry holds it. 404 for an id that does not exist or whose record " +
    'left the current snapshot. Any key; free keys see names and identifiers as LOCKED. Cost: one API credit.',
  http: { method: 'GET', path: '/bank-intelligence/record/:record_id', inputFrom: 'query' },
  grpc: { method: 'BankRecord', wrap: 'object' },
  refusals: ['not_found'],
  access: 'key',
  input: recordInput,
  output: Type.Object({ ...envelopeSchemas, record: recordViewSchema }),
  cost: () => ({ api_calls: 1 }),
  rows: () => 1,
  run: (input: Static<typeof recordInput>, context): RecordOutput => {
    const registry = context.registry;
    const record = currentRecordOrThrow(registry, input.record_id);
    const view = new RecordViews(registry, context.registryIndex, {
      provenance: seesProvenance(context.caller),
      detail: true,
    }).view(record);
    return { ...envelopeOf(registry, 1), record: visibilityOf(context.caller).record(view) };
  },
});
