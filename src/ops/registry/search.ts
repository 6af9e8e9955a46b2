import { Type, type Static } from '@sinclair/typebox';
import {
  envelopeOf,
  envelopeSchemas,
  requirePlan,
  seesProvenance,
  type Envelope,
} from './common.js';
import { recordViewSchema, RecordViews, type RecordView } from './bank-views.js';
import { defineOp } from '../framework/op.js';
import { limits } from '../../limits.js';
import { strictObject } from '../framework/schemas.js';

const filterText = (description: string) =>
  Type.Optional(
    Type.String({ minLength: 1, maxLength: limits.registry.filterCharsMax, description }),
  );

export const searchInput = strictObject({
  query: Type.String({
    minLength: limits.registry.searchQueryCharsMin,
    maxLength: limits.registry.searchQueryCharsMax,
    description:
      'A bank name (matched word by word: exact, all words, all words but generic ones such as "Bank", then word prefixes), or words of a city, BIC, LEI or code that each begin a word of the record; case, accents and legal forms do not matter',
  }),
  country_code: Type.Optional(
    Type.String({ minLength: 2, maxLength: 2, description: 'ISO 3166-1 alpha-2' }),
  ),
  source_id: filterText('Only records of this source (see /bank-intelligence/sources)'),
  record_type: filterText(
    'bank, branch, legal_entity, relationship, routing_number, bank_code_range or unassigned (a published placeholder row, e.g. NBB "VRIJ"; only reached by its record key)',
  ),
  status: filterText('Matches entity_status or registration_status (ACTIVE, ISSUED, LAPSED, ...)'),
  limit: Type.Integer({
    minimum: 1,
    maximum: limits.registry.searchLimitMax,
    default: limits.registry.searchLimitDefault,
    description: 'Reserved in API credits up front',
  }),
});
export type SearchInput = Static<typeof searchInput>;

export type SearchOutput = Envelope & {
  readonly count: number;
  readonly limit: number;
  readonly truncated: boolean;
  readonly results: readonly RecordView[];
};

/**
 * Spec rule 6: search reserves the requested limit in API credits. OUR DECISION: it commits the records
 * returned (at least one credit, the search itself), so a generous limit costs nothing extra when few match.
 */
export function searchCredits(returned: number): number {
  return Math.max(1, returned);
}

export const bankSearch = defineOp({
  name: 'bank.search',
  needs: ['registry', 'registryIndex'] as const,
  runsOn: 'any',
  tag: 'Bank intelligence',
  summary: 'Search registry records by name, city or identifier',
  description:
    'The bank-name matcher that generate targeting uses ranks the records: names with exactly the query words first, ' +
    'then names holding every query word, then every word but generic bank words ("ING Bank" finds "ING"), then names ' +
    'whose words the query words begin; after them records whose city or identifiers the query words begin. ' +
    'Pro plan or higher (402 otherwise). Cost: the limit is reserved ' +
    'in API credits; the records returned (at least one) are committed and the rest released.',
  http: { method: 'POST', path: '/bank-intelligence/search', inputFrom: 'body' },
  grpc: { method: 'BankSearch', wrap: 'object' },
  access: 'key',
  input: searchInput,
  output: Type.Object({
    ...envelopeSchemas,
    count: Type.Integer({ description: 'Records returned' }),
    limit: Type.Integer(),
    truncated: Type.Boolean({ description: 'More records matched than the limit' }),
    results: Type.Array(recordViewSchema),
  }),
  gate: (_input, caller) =>
    requirePlan(caller, 'pro', 'payment_required', 'Bank intelligence search'),
  cost: (input) => ({ api_calls: input.limit }),
  usedCost: (_input, output: SearchOutput) => ({ api_calls: output.charged_api_credits }),
  rows: () => 1,
  run: (input, context): SearchOutput => {
    const registry = context.registry;
    const found = context.registryIndex.search(input);
    const views = new RecordViews(registry, context.registryIndex, {
      provenance: seesProvenance(context.caller),
      detail: false,
    });
    const results = found.records.map((record) => views.view(record));
    return {
      ...envelopeOf(registry, searchCredits(results.length)),
      count: results.length,
      limit: input.limit,
      truncated: found.truncated,
      results,
    };
  },
});
