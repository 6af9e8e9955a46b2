import { assert } from '../assert.js';
import { accountUsage } from './accounts/usage.js';
import { ibanBulkDataset } from './iban/bulk-dataset.js';
import { ibanCalculate } from './iban/calculate.js';
import { ibanGenerate } from './iban/generate.js';
import { ibanTestCases } from './iban/test-cases.js';
import { ibanGenerateStream, ibanValidateStream } from './iban/streams.js';
import { ibanValidate } from './iban/validate.js';
import type { AnyOp } from './framework/op.js';
import { bankChanges } from './registry/changes.js';
import { bankExport } from './registry/export.js';
import { bankLookup } from './registry/lookup.js';
import { bankRecord } from './registry/record.js';
import { bankSearch } from './registry/search.js';
import { bankSources } from './registry/sources.js';
import { registryTimeMachine } from './registry/time-machine.js';
import { watchlistChanges, watchlistMigrationFixture } from './registry/watch-changes.js';
import {
  watchlistCreate,
  watchlistDelete,
  watchlistGet,
  watchlistList,
} from './registry/watchlists.js';
import { usRoutingCheckList } from './us-routing/check-list.js';
import { usRoutingGenerate } from './us-routing/generate.js';
import { usRoutingLookup } from './us-routing/lookup.js';
import { usRoutingProfile } from './us-routing/profile.js';
import { usRoutingQuote } from './us-routing/quote.js';
import { usRoutingRun } from './us-routing/run.js';
import { usRoutingTargets } from './us-routing/targets.js';
import { profileAi } from './profiles/ai-profile.js';
import { profileGenerate } from './profiles/profile.js';
import { manifestCompile } from './manifests/compile.js';
import { manifestSchemaDocument } from './manifests/schema.js';
import { manifestSpec } from './manifests/spec.js';
import { vopCatalog } from './vop/catalog.js';
import { vopCompile } from './vop/compile.js';
import { vopScore } from './vop/score.js';
import { scenarioCatalog } from './scenarios/catalog.js';
import { scenarioCompile } from './scenarios/compile.js';
import { statementAnalyze } from './statements/analyze.js';
import { statementReview, statementReviewDelete } from './statements/review.js';

/** Every operation of the service. Routes, RPCs, OpenAPI, metering and workers are all built from this list. */
export const ops: readonly AnyOp[] = [
  ibanGenerate,
  ibanValidate,
  ibanTestCases,
  ibanBulkDataset,
  ibanCalculate,
  ibanValidateStream,
  ibanGenerateStream,
  // registry
  bankLookup,
  bankSearch,
  bankRecord,
  bankExport,
  bankSources,
  bankChanges,
  watchlistList,
  watchlistCreate,
  watchlistGet,
  watchlistDelete,
  watchlistChanges,
  watchlistMigrationFixture,
  registryTimeMachine,
  // US routing
  usRoutingGenerate,
  usRoutingTargets,
  usRoutingQuote,
  usRoutingRun,
  usRoutingLookup,
  usRoutingCheckList,
  usRoutingProfile,
  // account
  accountUsage,
  // synthetic profiles
  profileGenerate,
  profileAi,
  // fixture manifests
  manifestSpec,
  manifestSchemaDocument,
  manifestCompile,
  // Verification of Payee name-matching benchmark
  vopCatalog,
  vopCompile,
  vopScore,
  // payment scenarios
  scenarioCatalog,
  scenarioCompile,
  // statement review
  statementAnalyze,
  statementReview,
  statementReviewDelete,
];

export const opsByName: ReadonlyMap<string, AnyOp> = new Map(ops.map((op) => [op.name, op]));

assert(opsByName.size === ops.length, 'op names are unique');
const httpOps = ops.filter((op) => op.http !== null);
assert(
  new Set(httpOps.map((op) => `${op.http?.method} ${op.http?.path}`)).size === httpOps.length,
  'HTTP routes are unique',
);
assert(new Set(ops.map((op) => op.grpc.method)).size === ops.length, 'gRPC methods are unique');
