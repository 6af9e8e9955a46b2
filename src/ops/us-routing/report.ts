/**
 * What the service says about one routing number, in separate objects that never mix their evidence:
 * - checksum: the ABA arithmetic (prefix rule + 3-7-1 check digit), from the number alone;
 * - prefix: what the first two digits mean;
 * - directory: what the imported FedACH/Fedwire files say (observations per source, with date and sha256);
 * - payment_rails: whether each rail's directory lists the number.
 * A checksum-valid number the directory does not list is still valid: observed is false, nothing more.
 */
import { Type } from '@sinclair/typebox';
import { checkRoutingNumber, type RoutingVerdict } from '../../domain/routing/index.js';
import type {
  RoutingDirectory,
  RoutingObservation,
  RoutingSourceId,
} from '../../registry/routing-directory.js';
import { routingTargetSchema } from './common.js';

export type RailStatus = 'observed' | 'not_observed' | 'unknown';

export interface RoutingReport {
  readonly routing_number: string;
  readonly checksum: {
    readonly valid: boolean;
    readonly error: RoutingVerdict['error'];
    readonly expected_check_digit: number | null;
  };
  readonly prefix: RoutingVerdict['prefix'];
  readonly directory: {
    readonly status: 'loaded' | 'not_loaded';
    /** null when no directory is loaded (nothing to observe against). */
    readonly observed: boolean | null;
    readonly observations: readonly RoutingObservation[];
  };
  readonly payment_rails: { readonly ach: RailStatus; readonly wire: RailStatus };
}

/** ACH: the FedACH directory; wire: the Fedwire Funds directory. */
const railSources: Readonly<Record<'ach' | 'wire', RoutingSourceId>> = {
  ach: 'fedach',
  wire: 'fedwire',
};

function railStatus(
  loaded: ReadonlySet<string>,
  observations: readonly RoutingObservation[],
  source: RoutingSourceId,
): RailStatus {
  if (!loaded.has(source)) return 'unknown';
  return observations.some((observation) => observation.source_id === source)
    ? 'observed'
    : 'not_observed';
}

export function routingReport(
  input: string,
  directory: RoutingDirectory,
  verdict: RoutingVerdict = checkRoutingNumber(input),
): RoutingReport {
  const loaded = new Set(directory.sources().map((source) => source.source_id));
  const observations =
    verdict.error === 'invalid_characters' || verdict.error === 'invalid_length'
      ? []
      : directory.byRoutingNumber(input);
  return {
    routing_number: input,
    checksum: {
      valid: verdict.valid,
      error: verdict.error,
      expected_check_digit: verdict.expected_check_digit,
    },
    prefix: verdict.prefix,
    directory: {
      status: loaded.size === 0 ? 'not_loaded' : 'loaded',
      observed: loaded.size === 0 ? null : observations.length > 0,
      observations,
    },
    payment_rails: {
      ach: railStatus(loaded, observations, railSources.ach),
      wire: railStatus(loaded, observations, railSources.wire),
    },
  };
}

const routingErrorSchema = Type.Union(
  [
    Type.Literal('invalid_characters'),
    Type.Literal('invalid_length'),
    Type.Literal('invalid_prefix'),
    Type.Literal('invalid_checksum'),
    Type.Null(),
  ],
  {
    description:
      'First failing rule, in this order: characters, length, prefix, checksum; null when valid',
  },
);

export const routingPrefixSchema = Type.Union([
  Type.Object({
    value: Type.String(),
    kind: Type.String({
      description:
        'us_government | federal_reserve_district | thrift_institution | electronic_transaction_identifier | travelers_cheques | unassigned',
    }),
    district: Type.Union([Type.Integer(), Type.Null()]),
    reserve_bank_city: Type.Union([Type.String(), Type.Null()]),
    meaning: Type.String(),
  }),
  Type.Null(),
]);

const railSchema = Type.Union(
  [Type.Literal('observed'), Type.Literal('not_observed'), Type.Literal('unknown')],
  {
    description:
      "observed: that rail's directory lists the number; not_observed: it is loaded and does not; unknown: not loaded",
  },
);

export const routingReportProperties = {
  routing_number: Type.String({ description: 'The input, unchanged' }),
  checksum: Type.Object(
    {
      valid: Type.Boolean({ description: 'Prefix rule and 3-7-1 check digit both pass' }),
      error: routingErrorSchema,
      expected_check_digit: Type.Union([Type.Integer(), Type.Null()]),
    },
    { description: 'From the number alone' },
  ),
  prefix: routingPrefixSchema,
  directory: Type.Object(
    {
      status: Type.Union([Type.Literal('loaded'), Type.Literal('not_loaded')]),
      observed: Type.Union([Type.Boolean(), Type.Null()], {
        description: 'false is not "invalid": the directory just does not list it',
      }),
      observations: Type.Array(routingTargetSchema),
    },
    { description: 'What the imported directory files say, per source' },
  ),
  payment_rails: Type.Object({ ach: railSchema, wire: railSchema }),
};

/** Compact check-list row: the verdict and whether the directory lists the number. */
export interface CheckListRow extends RoutingVerdict {
  readonly directory: 'observed' | 'not_observed' | 'not_loaded';
}

export const checkListRowSchema = Type.Object({
  input: Type.String(),
  valid: Type.Boolean(),
  error: routingErrorSchema,
  prefix: routingPrefixSchema,
  expected_check_digit: Type.Union([Type.Integer(), Type.Null()]),
  directory: Type.Union([
    Type.Literal('observed'),
    Type.Literal('not_observed'),
    Type.Literal('not_loaded'),
  ]),
});
