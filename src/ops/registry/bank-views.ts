/**
 * Registry records as the API shows them (results[], record): normalized fields, identifiers, the
 * domestic registry entry, published successor and deletion flags, and for Business keys the source
 * attribution down to the snapshot and row hash. Record detail adds parent relationships and the
 * published fields. Nothing here is inferred: every value comes from an imported record.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { RegistryIndex } from '../../registry/registry-index.js';
import type { RegistryReader } from '../../registry/store/registry-reader.js';
import type { StoredRecord, StoredSnapshot } from '../../registry/store/types.js';
import { deepFreeze } from '../../deep-freeze.js';
import { nullableString } from '../framework/schemas.js';
import { limits } from '../../limits.js';

export const sourceRefSchema = Type.Object({
  source_id: Type.String(),
  snapshot_id: Type.Integer({ description: "The source's current snapshot" }),
  snapshot_date: nullableString('Publisher date of that snapshot'),
  attribution: Type.String({ description: 'Publisher, as the attribution the licence asks for' }),
  license: Type.String({ description: 'Licence or terms of use as the publisher states them' }),
  row_sha256: Type.String({ description: 'SHA-256 of the normalized record' }),
  changed_in_snapshot_id: Type.Integer({
    description: 'The snapshot that last changed this record',
  }),
});

export const parentSchema = Type.Object({
  relationship_type: Type.String({
    description:
      'GLEIF RR-CDF type (IS_DIRECTLY_CONSOLIDATED_BY, ...) or head_office (SIX Hauptsitz)',
  }),
  scheme: Type.String({
    description: 'How the parent is named: lei or a national scheme (ch_iid)',
  }),
  value: Type.String(),
  status: nullableString('Relationship status as published (ACTIVE, INACTIVE)'),
  start_date: nullableString('Relationship start as published'),
  record_id: Type.Union([Type.Integer(), Type.Null()], {
    description: "The parent's record, when the registry holds it",
  }),
  legal_name: nullableString("The parent's legal name, when the registry holds it"),
  lei: nullableString("The parent's LEI, when known"),
});

export const recordViewSchema = Type.Object({
  record_id: Type.Integer({ minimum: 1 }),
  source_id: Type.String(),
  record_key: Type.String({
    description:
      'Stable key within the source (Datensatznummer, BLZ, IID-Filial-ID, LEI, routing number ...)',
  }),
  record_type: Type.String({
    description:
      'bank, branch, legal_entity, relationship, routing_number, bank_code_range or unassigned (a published placeholder row, e.g. NBB "VRIJ"; only reached by its record key)',
  }),
  legal_name: nullableString('Name as published (LOCKED for free keys)'),
  short_name: nullableString('Short name as published (LOCKED for free keys)'),
  country_code: Type.String(),
  bic: nullableString('BIC as published, 8 or 11 characters (LOCKED for free keys)'),
  bic8: nullableString('First 8 characters of the BIC (LOCKED for free keys)'),
  lei: nullableString('ISO 17442 LEI as published (LOCKED for free keys)'),
  domestic_codes: Type.Array(Type.Object({ scheme: Type.String(), value: Type.String() })),
  address: Type.Object({
    street: nullableString('Street'),
    postal_code: nullableString('Postal code'),
    city: nullableString('City'),
    region: nullableString('Region'),
  }),
  city: nullableString('Same as address.city'),
  entity_status: nullableString('GLEIF entity status (ACTIVE, INACTIVE)'),
  registration_status: nullableString('GLEIF registration status (ISSUED, LAPSED, ...)'),
  payment_schemes: Type.Array(Type.String(), {
    description:
      'sct, sct_inst, sdd_core, sdd_b2b, vop where a source publishes them (none of the current sources do)',
  }),
  domestic_registry: Type.Union([
    Type.Object({
      bank_code: Type.String(),
      account_checksum_method: nullableString('Bundesbank method 00..E4 where published'),
    }),
    Type.Null(),
  ]),
  successor: Type.Union(
    [
      Type.Object({
        scheme: Type.String(),
        value: Type.String(),
        effective_at: nullableString('As published'),
      }),
      Type.Null(),
    ],
    {
      description:
        'Successor code, only where the source publishes one (Bundesbank Nachfolge-BLZ, SIX IID neu, FedACH new routing number, GLEIF successor LEI)',
    },
  ),
  deletion_planned: Type.Boolean({
    description: 'Bundesbank Bankleitzahllöschung = 1: deletion of this bank code is announced',
  }),
  updated_at: nullableString('When the snapshot that last changed this record was imported'),
  source: Type.Optional(sourceRefSchema),
  parents: Type.Optional(Type.Array(parentSchema)),
  published_fields: Type.Optional(
    Type.Record(Type.String(), Type.String(), {
      description: 'Every column as published (record detail)',
    }),
  ),
  premium_fields_locked: Type.Optional(Type.Boolean()),
  locked_fields: Type.Optional(Type.Array(Type.String())),
});
export type RecordView = Static<typeof recordViewSchema>;
export type ParentView = Static<typeof parentSchema>;

export interface ViewOptions {
  /** Business and up: source attribution. */
  readonly provenance: boolean;
  /** Record detail: parents and published fields. */
  readonly detail: boolean;
}

/**
 * Summary views (lookup, search, export) by record object, one map per provenance setting. The store hands
 * out one object per record per registry version (its record cache) and every value of a summary view is
 * fixed for that version (the record, its snapshots, its source's current snapshot), so a cached view never
 * outlives its data: an import makes new record objects and the old entries die with the old ones.
 * Views are frozen, so the renderer serializes each once. Measured with bench/registry-load.ts: see RESULTS.md.
 */
const summaryViews = {
  plain: new WeakMap<StoredRecord, RecordView>(),
  provenance: new WeakMap<StoredRecord, RecordView>(),
};

/** Reads the registry for views, caching snapshot rows for the length of one request. */
export class RecordViews {
  private readonly snapshots = new Map<number, StoredSnapshot | undefined>();

  constructor(
    readonly registry: RegistryReader,
    private readonly index: RegistryIndex,
    private readonly options: ViewOptions,
  ) {}

  private snapshot(id: number): StoredSnapshot | undefined {
    if (!this.snapshots.has(id)) this.snapshots.set(id, this.registry.snapshot(id));
    return this.snapshots.get(id);
  }

  /** The record as the API shows it; summary views are shared and frozen, detail views are built per request. */
  view(record: StoredRecord): RecordView {
    if (this.options.detail) return this.build(record);
    const cache = this.options.provenance ? summaryViews.provenance : summaryViews.plain;
    let view = cache.get(record);
    if (view === undefined) {
      view = deepFreeze(this.build(record));
      cache.set(record, view);
    }
    return view;
  }

  private build(record: StoredRecord): RecordView {
    const bankCode = this.index.ibanBankCodesOf(record)[0] ?? record.domestic_codes[0]?.value;
    const view: RecordView = {
      record_id: record.record_id,
      source_id: record.source_id,
      record_key: record.record_key,
      record_type: record.record_type,
      legal_name: record.legal_name,
      short_name: record.short_name,
      country_code: record.country_code,
      bic: record.bic,
      bic8: record.bic === null ? null : this.index.bic8Of(record.bic),
      lei: record.lei,
      domestic_codes: record.domestic_codes.map((code) => ({
        scheme: code.scheme,
        value: code.value,
      })),
      address: { ...record.address },
      city: record.address.city,
      entity_status: record.entity_status,
      registration_status: record.registration_status,
      payment_schemes: [],
      domestic_registry:
        bankCode === undefined
          ? null
          : { bank_code: bankCode, account_checksum_method: record.account_checksum_method },
      successor: record.successor === null ? null : { ...record.successor },
      deletion_planned: record.deletion_planned,
      updated_at: this.snapshot(record.since_snapshot_id)?.imported_at ?? null,
    };
    if (this.options.provenance) view.source = this.sourceRef(record);
    if (this.options.detail) {
      view.parents = this.parentsOf(record);
      view.published_fields = { ...record.fields };
    }
    return view;
  }

  private sourceRef(record: StoredRecord): RecordView['source'] {
    const current =
      this.registry.source(record.source_id)?.current_snapshot_id ?? record.since_snapshot_id;
    const snapshot = this.snapshot(current);
    return {
      source_id: record.source_id,
      snapshot_id: current,
      snapshot_date: snapshot?.snapshot_date ?? null,
      attribution: snapshot?.attribution ?? record.source_id,
      license: snapshot?.license ?? '',
      row_sha256: record.row_sha256,
      changed_in_snapshot_id: record.since_snapshot_id,
    };
  }

  /** The record's own links (SIX head office, GLEIF) plus GLEIF relationship records whose child is its LEI. */
  parentsOf(record: StoredRecord): ParentView[] {
    const links = [...record.parents];
    if (record.lei !== null) {
      for (const id of this.registry.idsAt('lei', record.lei, limits.registry.linkCandidatesMax)) {
        const relationship = this.registry.record(id);
        if (
          relationship?.record_type === 'relationship' &&
          relationship.lei === record.lei &&
          relationship.record_id !== record.record_id
        )
          links.push(...relationship.parents);
      }
    }
    const seen = new Set<string>();
    return links.flatMap((link) => {
      const key = `${link.relationship_type}|${link.scheme}|${link.value}`;
      if (seen.has(key)) return [];
      seen.add(key);
      const parent = this.resolve(link.scheme, link.value, record.country_code);
      return [
        {
          relationship_type: link.relationship_type,
          scheme: link.scheme,
          value: link.value,
          status: link.status,
          start_date: link.start_date,
          record_id: parent?.record_id ?? null,
          legal_name: parent?.legal_name ?? null,
          lei: link.scheme === 'lei' ? link.value : (parent?.lei ?? null),
        },
      ];
    });
  }

  private resolve(scheme: string, value: string, countryCode: string): StoredRecord | undefined {
    const ids =
      scheme === 'lei'
        ? this.registry.idsAt('lei', value, limits.registry.linkCandidatesMax)
        : this.index.idsOfCode(countryCode, scheme, value, limits.registry.linkCandidatesMax);
    const records = ids.flatMap((id) => this.registry.record(id) ?? []);
    const wanted = scheme === 'lei' ? 'legal_entity' : 'bank';
    return records.find((candidate) => candidate.record_type === wanted) ?? records[0];
  }
}
