import { Type, type Static } from '@sinclair/typebox';
import { AppError } from '../../errors.js';
import {
  envelopeOf,
  envelopeSchemas,
  requirePlan,
  seesProvenance,
  type Envelope,
} from './common.js';
import { recordViewSchema, RecordViews, type RecordView } from './bank-views.js';
import { defineOp, type CallerView, type RunContext } from '../framework/op.js';
import { limits } from '../../limits.js';
import { strictObject } from '../framework/schemas.js';

const valueField = Type.String({
  minLength: 1,
  maxLength: limits.registry.identifierValueCharsMax,
  description:
    'BIC, LEI, bank or clearing code ("DE:10050000" names the country), routing number, company number',
});
const typeField = Type.String({
  minLength: 1,
  maxLength: limits.registry.identifierTypeCharsMax,
  description:
    'bic, lei, bank_code (alias domestic_code, clearing_code), routing_number, company_number, or a scheme id (de_blz, at_blz, ch_iid, be_protocol, us_aba, ...); recognised from the value when absent',
});

export const bankIdentifierSchema = strictObject(
  { value: valueField, type: Type.Optional(typeField) },
  'BankIdentifier',
);

/** Spec "Lookup request (also used by export)": a value/type pair, or an identifiers array. */
export const lookupInput = strictObject({
  value: Type.Optional(valueField),
  type: Type.Optional(typeField),
  identifiers: Type.Optional(
    Type.Array(bankIdentifierSchema, {
      minItems: 1,
      maxItems: limits.registry.lookupIdentifiersMax,
    }),
  ),
});
export type LookupInput = Static<typeof lookupInput>;

export interface Identifier {
  readonly value: string;
  readonly type?: string | undefined;
}

/** The identifiers of a request; a request with both forms, or neither, is a 400. */
export function identifiersOf(input: LookupInput): readonly Identifier[] {
  if (input.identifiers !== undefined) {
    if (input.value !== undefined || input.type !== undefined)
      throw new AppError(
        'invalid_argument',
        'Send either value/type or an identifiers array, not both',
      );
    return input.identifiers;
  }
  if (input.value === undefined)
    throw new AppError(
      'invalid_argument',
      'Send an identifier: value (with an optional type) or an identifiers array',
    );
  return [{ value: input.value, type: input.type }];
}

export interface LookupResult {
  readonly query: { readonly value: string; readonly type: string | null };
  /** The type the value was looked up as. */
  readonly resolved_type: string;
  readonly match_status: 'matched' | 'no_match';
  readonly match_count: number;
  /** More than 25 records matched; the first 25 are returned. */
  readonly truncated: boolean;
  readonly matches: readonly RecordView[];
}

export function lookupAll(
  input: LookupInput,
  context: RunContext<'registry' | 'registryIndex'>,
): LookupResult[] {
  const registry = context.registry;
  const views = new RecordViews(registry, context.registryIndex, {
    provenance: seesProvenance(context.caller),
    detail: false,
  });
  return identifiersOf(input).map((identifier) => {
    const hit = context.registryIndex.lookup(
      identifier.value,
      identifier.type,
      limits.registry.matchesPerIdentifierMax,
    );
    return {
      query: { value: identifier.value, type: identifier.type ?? null },
      resolved_type: hit.type,
      match_status: hit.records.length === 0 ? 'no_match' : 'matched',
      match_count: hit.records.length,
      truncated: hit.truncated,
      matches: hit.records.map((record) => views.view(record)),
    };
  });
}

export const lookupResultSchema = Type.Object({
  query: Type.Object({ value: Type.String(), type: Type.Union([Type.String(), Type.Null()]) }),
  resolved_type: Type.String(),
  match_status: Type.Union([Type.Literal('matched'), Type.Literal('no_match')], {
    description: 'no_match is explicit: nothing is ever substituted',
  }),
  match_count: Type.Integer(),
  truncated: Type.Boolean({
    description: `More than ${limits.registry.matchesPerIdentifierMax} records matched`,
  }),
  matches: Type.Array(recordViewSchema),
});

export type LookupOutput = Envelope & {
  readonly count: number;
  readonly results: readonly LookupResult[];
};

export function gateLookup(input: LookupInput, caller: CallerView): void {
  identifiersOf(input);
  requirePlan(caller, 'starter', 'payment_required', 'Bank intelligence lookup');
}

export const bankLookup = defineOp({
  name: 'bank.lookup',
  needs: ['registry', 'registryIndex'] as const,
  runsOn: 'any',
  tag: 'Bank intelligence',
  summary: 'Look up registry records by BIC, LEI or national code',
  description:
    'A value/type pair or up to 1,000 identifiers; at most 25 matches each, and an explicit no_match for an identifier ' +
    'nothing matches. Starter plan or higher (402 otherwise). Cost: one API credit per identifier. Business keys also ' +
    'get source attribution (snapshot, licence, row hash) on every record.',
  http: { method: 'POST', path: '/bank-intelligence/lookup', inputFrom: 'body' },
  grpc: { method: 'BankLookup', wrap: 'object' },
  access: 'key',
  input: lookupInput,
  output: Type.Object({
    ...envelopeSchemas,
    count: Type.Integer({ description: 'Records matched over all identifiers' }),
    results: Type.Array(lookupResultSchema),
  }),
  gate: gateLookup,
  cost: (input) => ({ api_calls: identifiersOf(input).length }),
  rows: (input) => identifiersOf(input).length,
  run: (input, context): LookupOutput => {
    const results = lookupAll(input, context);
    const count = results.reduce((sum, result) => sum + result.match_count, 0);
    return { ...envelopeOf(context.registry, results.length), count, results };
  },
});
