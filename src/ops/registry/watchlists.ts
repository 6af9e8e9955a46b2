import { Type, type Static } from '@sinclair/typebox';
import { AppError } from '../../errors.js';
import type { RegistryReader } from '../../registry/store/registry-reader.js';
import type { Watch } from '../../ports/watches.js';
import { envelopeOf, envelopeSchemas, type Envelope } from './common.js';
import { knownSourceOrThrow, sourceIdField } from './changes.js';
import { defineOp, type CallerView, type RunContext } from '../framework/op.js';
import { limits } from '../../limits.js';
import { nullableString, strictObject } from '../framework/schemas.js';

export const watchSchema = Type.Object({
  watch_id: Type.String(),
  source_id: Type.String(),
  record_key: Type.String(),
  match_status: Type.Union([Type.Literal('matched'), Type.Literal('no_match')], {
    description:
      "no_match: the source's current snapshot holds no such record (never seen, or removed); the watch stays and matches when it appears",
  }),
  record_id: Type.Union([Type.Integer(), Type.Null()], {
    description: "The record's id once the registry has seen it",
  }),
  created_at: Type.String(),
  change_count: Type.Integer({ description: 'registry-change/1.0 events of the record' }),
  last_change_at: nullableString('Detection time of the latest event'),
  delivery: Type.Literal('poll', {
    description: 'Changes are read from /changes; a watch sends no email or webhook',
  }),
});
export type WatchView = Static<typeof watchSchema>;

export function watchView(registry: RegistryReader, watch: Watch): WatchView {
  const recordId = registry.recordId(watch.source_id, watch.record_key) ?? null;
  const events = recordId === null ? [] : registry.eventsOfRecord(recordId);
  return {
    watch_id: watch.watch_id,
    source_id: watch.source_id,
    record_key: watch.record_key,
    match_status:
      recordId !== null && registry.record(recordId) !== undefined ? 'matched' : 'no_match',
    record_id: recordId,
    created_at: watch.created_at,
    change_count: events.length,
    last_change_at: events[events.length - 1]?.detected_at ?? null,
    delivery: 'poll',
  };
}

export function keyIdOf(caller: CallerView): string {
  if (caller.keyId === null)
    throw new AppError('unauthenticated', 'Watchlists belong to an API key');
  return caller.keyId;
}

export const watchIdInput = strictObject({
  watch_id: Type.String({
    minLength: 1,
    maxLength: limits.registry.watchIdCharsMax,
    description: 'A watch id of this API key',
  }),
});

/** Watch the caller owns, or 404 (another key's watch is indistinguishable from a missing one). */
export function ownedWatch(
  input: Static<typeof watchIdInput>,
  context: RunContext<'watches'>,
): Promise<Watch> {
  return context.watches.find(keyIdOf(context.caller), input.watch_id);
}

const common = {
  tag: 'Registry watchlists',
  access: 'key',
  needs: ['registry', 'watches'] as const,
  /** Watches are per-key state: the pool has no WatchStore. */
  runsOn: 'main',
  rows: () => 1,
} as const;

const watchCostNote = 'Any key; cost: one API credit.';

export type WatchOutput = Envelope & { readonly watch: WatchView };

export const watchlistList = defineOp({
  ...common,
  name: 'registry.watchlists.list',
  summary: "List this key's registry watches",
  description: `Watches are scoped to the API key that created them. ${watchCostNote}`,
  http: { method: 'GET', path: '/registry/watchlists', inputFrom: 'query' },
  grpc: { method: 'ListWatchlists', wrap: 'object' },
  input: strictObject({}),
  output: Type.Object({
    ...envelopeSchemas,
    count: Type.Integer(),
    watchlists: Type.Array(watchSchema),
  }),
  cost: () => ({ api_calls: 1 }),
  run: async (_input, context) => {
    const registry = context.registry;
    const watchlists = (await context.watches.list(keyIdOf(context.caller))).map((watch) =>
      watchView(registry, watch),
    );
    return { ...envelopeOf(registry, 1), count: watchlists.length, watchlists };
  },
});

const createInput = strictObject({
  source_id: sourceIdField,
  record_key: Type.String({
    minLength: 1,
    maxLength: limits.registry.recordKeyCharsMax,
    description:
      "The record's key within the source, or the key people know: Bundesbank bank code (main record), SIX IID, NBB protocol code, OeNB bank code, LEI, routing number",
  }),
});

export const watchlistCreate = defineOp({
  ...common,
  needs: ['registry', 'registryIndex', 'watches'] as const,
  name: 'registry.watchlists.create',
  summary: 'Watch one source record for published changes',
  description:
    'A watch is a source/record pair of a source this registry holds (400 for an unknown source). A record the current ' +
    `snapshot does not hold is reported as match_status no_match. Creating the same pair again returns the same watch. ` +
    `At most ${limits.accounts.watchesPerKeyMax} watches per key (409 beyond). No email or webhook is sent. ${watchCostNote}`,
  http: { method: 'POST', path: '/registry/watchlists', inputFrom: 'body' },
  grpc: { method: 'CreateWatchlist', wrap: 'object' },
  refusals: ['conflict'],
  successStatus: 201,
  input: createInput,
  output: Type.Object({ ...envelopeSchemas, watch: watchSchema }),
  cost: () => ({ api_calls: 1 }),
  run: async (input: Static<typeof createInput>, context): Promise<WatchOutput> => {
    const registry = context.registry;
    knownSourceOrThrow(registry, input.source_id);
    const recordKey = context.registryIndex.recordKey(input.source_id, input.record_key);
    const watch = await context.watches.create(
      keyIdOf(context.caller),
      input.source_id,
      recordKey,
      context.now(),
    );
    return { ...envelopeOf(registry, 1), watch: watchView(registry, watch) };
  },
});

export const watchlistGet = defineOp({
  ...common,
  name: 'registry.watchlists.get',
  summary: 'Read one watch',
  description: `404 for an unknown watch id or another key's watch. ${watchCostNote}`,
  http: { method: 'GET', path: '/registry/watchlists/:watch_id', inputFrom: 'query' },
  grpc: { method: 'GetWatchlist', wrap: 'object' },
  refusals: ['not_found'],
  input: watchIdInput,
  output: Type.Object({ ...envelopeSchemas, watch: watchSchema }),
  cost: () => ({ api_calls: 1 }),
  run: async (input, context): Promise<WatchOutput> => {
    const registry = context.registry;
    return {
      ...envelopeOf(registry, 1),
      watch: watchView(registry, await ownedWatch(input, context)),
    };
  },
});

export const watchlistDelete = defineOp({
  ...common,
  name: 'registry.watchlists.delete',
  summary: 'Delete one watch',
  description: "404 for an unknown watch id or another key's watch. Free of charge.",
  http: { method: 'DELETE', path: '/registry/watchlists/:watch_id', inputFrom: 'query' },
  grpc: { method: 'DeleteWatchlist', wrap: 'object' },
  refusals: ['not_found'],
  input: watchIdInput,
  output: Type.Object({ ...envelopeSchemas, deleted: Type.Literal(true), watch_id: Type.String() }),
  cost: () => ({}),
  run: async (input, context) => {
    const registry = context.registry;
    const watch = await context.watches.remove(keyIdOf(context.caller), input.watch_id);
    return { ...envelopeOf(registry, 0), deleted: true as const, watch_id: watch.watch_id };
  },
});
