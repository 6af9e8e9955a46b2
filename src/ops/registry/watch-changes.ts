import { Type, type Static } from '@sinclair/typebox';
import {
  calculateIban,
  countryFormatOf,
  generateIban,
  ibanCheckDigits,
  validateIban,
  type CountryFormat,
  type GeneratedIban,
} from '../../domain/iban/index.js';
import { requestKeyOf, rowRng } from '../../domain/rng.js';
import type { BankDirectory } from '../../registry/bank-directory.js';
import type { RegistryRecord } from '../../registry/record.js';
import type { RegistryIndex } from '../../registry/registry-index.js';
import type { RegistryReader } from '../../registry/store/registry-reader.js';
import type { ChangeEvent, FieldChange, Watch } from '../../registry/store/types.js';
import { envelopeOf, envelopeSchemas } from './common.js';
import { changeEventSchema, fieldChangeSchema } from './changes.js';
import { visibilityOf, type Visibility } from './visibility.js';
import { defineOp } from '../framework/op.js';
import { ownedWatch, watchIdInput, watchSchema, watchView } from './watchlists.js';
import { nullableString } from '../framework/schemas.js';

export const watchlistChanges = defineOp({
  name: 'registry.watchlists.changes',
  needs: ['registry', 'watches', 'bank'] as const,
  runsOn: 'main',
  tag: 'Registry watchlists',
  summary: 'Field-level changes of a watched record',
  description:
    'Every registry-change/1.0 event of the watched record, oldest first, from the published snapshot diffs (also those ' +
    "before the watch was created). 404 for an unknown watch id or another key's watch. Cost: one API credit.",
  http: { method: 'GET', path: '/registry/watchlists/:watch_id/changes', inputFrom: 'query' },
  grpc: { method: 'WatchlistChanges', wrap: 'object' },
  refusals: ['not_found'],
  access: 'key',
  input: watchIdInput,
  output: Type.Object({
    ...envelopeSchemas,
    watch: watchSchema,
    count: Type.Integer(),
    changes: Type.Array(changeEventSchema),
  }),
  cost: () => ({ api_calls: 1 }),
  rows: () => 1,
  run: async (input, context) => {
    const registry = context.registry;
    const watch = await ownedWatch(input, context);
    const view = watchView(registry, watch);
    const visibility = visibilityOf(context.caller);
    const changes =
      view.record_id === null
        ? []
        : registry.eventsOfRecord(view.record_id).map((event) => visibility.event(event));
    return { ...envelopeOf(registry, 1), watch: view, count: changes.length, changes };
  },
});

const fixtureSideSchema = Type.Object({
  country_code: Type.String(),
  bank_code: nullableString('Bank or routing code on this side, as published'),
  bic: nullableString('BIC as published on this side'),
  bank_name: nullableString('Name as published on this side'),
  city: nullableString('City as published on this side'),
  iban: nullableString(
    "SYNTHETIC IBAN with this side's bank code (the same synthetic account on both sides); null outside IBAN countries",
  ),
  national_check: nullableString('National check outcome of the synthetic IBAN'),
});
type FixtureSide = Static<typeof fixtureSideSchema>;

const fixtureSchema = Type.Object({
  ...envelopeSchemas,
  watch_id: Type.String(),
  source_id: Type.String(),
  record_key: Type.String(),
  synthetic: Type.Literal(true),
  seed: Type.String({
    description: 'The watch id: the same watch gives the same synthetic account on every call',
  }),
  basis: Type.Union(
    [Type.Literal('successor'), Type.Literal('change_event'), Type.Literal('none')],
    {
      description:
        'successor: the source publishes a successor code; change_event: the latest published change; none: nothing published, before equals after',
    },
  ),
  based_on_event_id: Type.Union([Type.Integer(), Type.Null()]),
  before: Type.Union([fixtureSideSchema, Type.Null()]),
  after: Type.Union([fixtureSideSchema, Type.Null()], {
    description:
      'null when the record was removed and no successor is published: nothing is substituted',
  }),
  changes: Type.Array(fieldChangeSchema),
  disclaimer: Type.String(),
});

const disclaimer =
  'Synthetic test fixture: the account numbers are generated; bank codes, BICs and names are as published by the source. ' +
  'A checksum-valid IBAN does not establish that an account exists.';

/** One side: a record as published, or only a published successor code (nothing else is known, so nothing else is filled). */
function sideOf(
  record: RegistryRecord | undefined,
  bankCode: string | null,
  fallbackCountry: string,
  iban: SyntheticIban,
): FixtureSide | null {
  if (record === undefined && bankCode === null) return null;
  return {
    country_code: record?.country_code ?? fallbackCountry,
    bank_code: bankCode,
    bic: record?.bic ?? null,
    bank_name: record?.legal_name ?? record?.short_name ?? null,
    city: record?.address.city ?? null,
    iban: iban?.iban ?? null,
    national_check: iban?.nationalCheck ?? null,
  };
}

type SyntheticIban = GeneratedIban | null;

function fits(country: string, bankCode: string | null): CountryFormat | undefined {
  const format = countryFormatOf(country);
  return format !== undefined && bankCode !== null && bankCode.length === format.bankCode.length
    ? format
    : undefined;
}

/**
 * The synthetic IBANs of both sides: a seeded account under the old bank code, and the same account
 * (and branch) moved to the new bank code, as a migration moves it. Each side's national check is what
 * the registry's method for that bank says of it.
 */
function syntheticPair(
  country: string,
  beforeCode: string | null,
  afterCode: string | null,
  watch: Watch,
  bank: BankDirectory,
): [SyntheticIban, SyntheticIban] {
  const rng = () => rowRng(requestKeyOf(watch.watch_id, 'migration-fixture'), 0);
  const attempt = (build: () => GeneratedIban): SyntheticIban => {
    try {
      return build();
    } catch {
      return null; // the code does not fit the country's IBAN: no IBAN rather than a made-up one
    }
  };
  const beforeFormat = fits(country, beforeCode);
  const before =
    beforeFormat === undefined
      ? null
      : attempt(() => generateIban(beforeFormat, rng(), { bankCode: beforeCode as string }, bank));
  const afterFormat = fits(country, afterCode);
  if (afterFormat === undefined) return [before, null];
  if (before === null)
    return [
      null,
      attempt(() => generateIban(afterFormat, rng(), { bankCode: afterCode as string }, bank)),
    ];
  const moved = {
    bankCode: afterCode as string,
    accountNumber: before.accountNumber,
    ...(before.branchCode === null ? {} : { branchCode: before.branchCode }),
  };
  return [
    before,
    attempt(() => calculateIban(afterFormat, moved, bank)) ??
      movedAsIs(afterFormat, before, afterCode as string, bank),
  ];
}

/**
 * The account moved unchanged although the new bank's check method rejects it: a real migration case
 * (the account must be renumbered), kept as a fixture with national_check "failed" rather than dropped.
 */
function movedAsIs(
  format: CountryFormat,
  before: GeneratedIban,
  afterCode: string,
  bank: BankDirectory,
): SyntheticIban {
  const { offset, length } = format.bankCode;
  const bban = `${before.bban.slice(0, offset)}${afterCode}${before.bban.slice(offset + length)}`;
  const iban = `${format.code}${ibanCheckDigits(format.code, bban)}${bban}`;
  return {
    ...before,
    iban,
    bban,
    bankCode: afterCode,
    nationalCheck: validateIban(iban, bank).nationalCheck,
  };
}

function bankCodeOf(index: RegistryIndex, record: RegistryRecord | undefined): string | null {
  if (record === undefined) return null;
  return index.ibanBankCodesOf(record)[0] ?? record.domestic_codes[0]?.value ?? null;
}

interface Migration {
  readonly basis: 'successor' | 'change_event' | 'none';
  readonly event: ChangeEvent | null;
  readonly before: RegistryRecord | undefined;
  readonly after: RegistryRecord | undefined;
  readonly afterCode: string | null;
  readonly changes: readonly FieldChange[];
}

/** A published successor first, then the latest published change, else none (before equals after). */
function migrationOf(
  registry: RegistryReader,
  index: RegistryIndex,
  recordId: number | null,
): Migration {
  const current = recordId === null ? undefined : registry.record(recordId);
  const events = recordId === null ? [] : registry.eventsOfRecord(recordId);
  const latest = events[events.length - 1] ?? null;
  const last =
    current ??
    (latest === null || recordId === null
      ? undefined
      : registry.snapshotRecord(latest.previous_snapshot_id, recordId));
  if (last !== undefined && last.successor !== null) {
    const successor = last.successor;
    const ids = index.idsOfCode(last.country_code, successor.scheme, successor.value, 1);
    const target = ids[0] === undefined ? undefined : registry.record(ids[0]);
    const change: FieldChange = {
      field: `successor:${successor.scheme}`,
      before: bankCodeOf(index, last),
      after: successor.value,
    };
    return {
      basis: 'successor',
      event: null,
      before: last,
      after: target,
      afterCode: successor.value,
      changes: [change],
    };
  }
  if (latest !== null && recordId !== null) {
    const before = registry.snapshotRecord(latest.previous_snapshot_id, recordId);
    const after = registry.snapshotRecord(latest.snapshot_id, recordId);
    return {
      basis: 'change_event',
      event: latest,
      before,
      after,
      afterCode: bankCodeOf(index, after),
      changes: latest.changes,
    };
  }
  return {
    basis: 'none',
    event: null,
    before: current,
    after: current,
    afterCode: bankCodeOf(index, current),
    changes: [],
  };
}

function sides(
  migration: Migration,
  watch: Watch,
  bank: BankDirectory,
  index: RegistryIndex,
  visibility: Visibility,
): { before: FixtureSide | null; after: FixtureSide | null } {
  const country = migration.before?.country_code ?? migration.after?.country_code ?? '';
  const beforeCode = bankCodeOf(index, migration.before);
  const [beforeIban, afterIban] = syntheticPair(
    country,
    beforeCode,
    migration.afterCode,
    watch,
    bank,
  );
  const before = sideOf(migration.before, beforeCode, country, beforeIban);
  const after = sideOf(migration.after, migration.afterCode, country, afterIban);
  return {
    before: before === null ? null : visibility.side(before),
    after: after === null ? null : visibility.side(after),
  };
}

export const watchlistMigrationFixture = defineOp({
  name: 'registry.watchlists.migration_fixture',
  needs: ['registry', 'registryIndex', 'watches', 'bank'] as const,
  runsOn: 'main',
  tag: 'Registry watchlists',
  summary: 'Deterministic synthetic before/after fixture for a watched record',
  description:
    'Test data for a bank-code or BIC migration of the watched record: the record before and after its published successor ' +
    '(Bundesbank Nachfolge-BLZ, SIX IID neu, FedACH new routing number) or its latest published change, each with a ' +
    'SYNTHETIC IBAN of the same synthetic account (seeded by the watch id). Nothing is invented: a removed record without ' +
    'a published successor has after = null. Cost: one API credit.',
  http: {
    method: 'GET',
    path: '/registry/watchlists/:watch_id/migration-fixture',
    inputFrom: 'query',
  },
  grpc: { method: 'WatchlistMigrationFixture', wrap: 'object' },
  refusals: ['not_found'],
  access: 'key',
  input: watchIdInput,
  output: fixtureSchema,
  cost: () => ({ api_calls: 1 }),
  rows: () => 1,
  run: async (input, context) => {
    const registry = context.registry;
    const watch = await ownedWatch(input, context);
    const migration = migrationOf(
      registry,
      context.registryIndex,
      registry.recordId(watch.source_id, watch.record_key) ?? null,
    );
    return {
      ...envelopeOf(registry, 1),
      watch_id: watch.watch_id,
      source_id: watch.source_id,
      record_key: watch.record_key,
      synthetic: true as const,
      seed: watch.watch_id,
      basis: migration.basis,
      based_on_event_id: migration.event?.event_id ?? null,
      ...sides(migration, watch, context.bank, context.registryIndex, visibilityOf(context.caller)),
      changes: migration.changes.map((change) => visibilityOf(context.caller).change(change)),
      disclaimer,
    };
  },
});
