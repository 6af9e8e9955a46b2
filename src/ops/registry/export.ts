import { Type } from '@sinclair/typebox';
import { isPlanAtLeast, type PlanId } from '../../domain/plans/plans.js';
import { AppError } from '../../errors.js';
import { premiumUnlockUrl } from './bank-fields.js';
import {
  identifiersOf,
  lookupAll,
  lookupInput,
  type LookupInput,
  type LookupResult,
} from './lookup.js';
import type { RecordView } from './bank-views.js';
import { defineOp, type CallerView } from '../framework/op.js';
import { limits } from '../../limits.js';
import { requirePlan } from './common.js';

/** Documented CSV columns: the query, then the flat registry record (arrays joined with |, nested objects flattened). */
export const exportColumns = [
  'query_type',
  'query_value',
  'match_rank',
  'match_status',
  'record_id',
  'source_id',
  'record_key',
  'record_type',
  'legal_name',
  'short_name',
  'country_code',
  'bic',
  'bic8',
  'lei',
  'domestic_codes',
  'street',
  'postal_code',
  'city',
  'region',
  'entity_status',
  'registration_status',
  'payment_schemes',
  'bank_code',
  'account_checksum_method',
  'successor',
  'successor_effective_at',
  'deletion_planned',
  'snapshot_id',
  'snapshot_date',
  'license',
  'row_sha256',
] as const;

type Cell = string | number | boolean | null;

export interface ExportOutput {
  readonly rows: readonly (readonly Cell[])[];
}

/** Export queries per request by plan (spec: Business 250, Enterprise 1,000). */
export function exportQueriesMax(plan: PlanId): number {
  if (isPlanAtLeast(plan, 'enterprise')) return limits.registry.exportQueriesEnterprise;
  if (isPlanAtLeast(plan, 'business')) return limits.registry.exportQueriesBusiness;
  return limits.registry.exportQueriesBelowBusiness;
}

function gateExport(input: LookupInput, caller: CallerView): void {
  const queries = identifiersOf(input).length;
  requirePlan(caller, 'starter', 'payment_required', 'Bank intelligence export');
  const plan = caller.plan as PlanId;
  const max = exportQueriesMax(plan);
  if (queries <= max) return;
  const required: PlanId =
    queries <= limits.registry.exportQueriesBusiness ? 'business' : 'enterprise';
  throw new AppError(
    'payment_required',
    `Your plan exports up to ${max} identifier queries per request, ${queries} sent; the ${required} plan allows more`,
    {
      required_plan: required,
      pricing_url: premiumUnlockUrl,
    },
  );
}

function recordCells(record: RecordView): Cell[] {
  return [
    record.record_id,
    record.source_id,
    record.record_key,
    record.record_type,
    record.legal_name,
    record.short_name,
    record.country_code,
    record.bic,
    record.bic8,
    record.lei,
    record.domestic_codes.map((code) => `${code.scheme}:${code.value}`).join('|'),
    record.address.street,
    record.address.postal_code,
    record.address.city,
    record.address.region,
    record.entity_status,
    record.registration_status,
    record.payment_schemes.join('|'),
    record.domestic_registry?.bank_code ?? null,
    record.domestic_registry?.account_checksum_method ?? null,
    record.successor === null ? null : `${record.successor.scheme}:${record.successor.value}`,
    record.successor?.effective_at ?? null,
    record.deletion_planned,
    record.source?.snapshot_id ?? null,
    record.source?.snapshot_date ?? null,
    record.source?.license ?? null,
    record.source?.row_sha256 ?? null,
  ];
}

/** One row per (query, match); a query that matches nothing is one row with match_status no_match. */
export function exportRows(results: readonly LookupResult[]): Cell[][] {
  const emptyRecord = new Array<Cell>(exportColumns.length - 4).fill(null);
  return results.flatMap((result) => {
    const query = [result.resolved_type, result.query.value];
    if (result.matches.length === 0) return [[...query, null, 'no_match', ...emptyRecord]];
    return result.matches.map((match, index) => [
      ...query,
      index + 1,
      'matched',
      ...recordCells(match),
    ]);
  });
}

export const bankExport = defineOp({
  name: 'bank.export',
  needs: ['registry', 'registryIndex'] as const,
  runsOn: 'any',
  tag: 'Bank intelligence',
  summary: 'Export lookup results as CSV',
  description:
    `The lookup request answered as text/csv (RFC 4180, UTF-8, header row always present). Columns: ${exportColumns.join(', ')}. ` +
    'One row per (identifier, match); an identifier without a match is one row with match_status no_match. Lists are ' +
    'joined with |. Starter plan or higher (402 otherwise); identifier queries per request: Starter and Pro 100 (our ' +
    'decision), Business 250, Enterprise 1,000 (402 beyond). Cost: one API credit per identifier plus one export credit. ' +
    'Provenance columns (snapshot, licence, row hash) are filled for Business keys and up.',
  http: { method: 'POST', path: '/bank-intelligence/export', inputFrom: 'body' },
  grpc: { method: 'BankExport', wrap: 'object' },
  access: 'key',
  input: lookupInput,
  output: Type.Object(
    {
      rows: Type.Array(
        Type.Array(Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()])),
      ),
    },
    { description: 'Served as text/csv' },
  ),
  gate: gateExport,
  cost: (input) => ({ api_calls: identifiersOf(input).length, exports: 1 }),
  rows: (input) => identifiersOf(input).length,
  run: (input, context): ExportOutput => ({ rows: exportRows(lookupAll(input, context)) }),
  csv: { wanted: () => true, headers: exportColumns, rows: (output: ExportOutput) => output.rows },
});
