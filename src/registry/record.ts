/**
 * Normalized bank-registry records: what every importer produces from an official publisher file
 * (sources -> snapshots -> records -> changes). Pure data; no I/O lives here.
 */

/** A bank identifier in a national scheme, e.g. { scheme: 'de_blz', value: '10050000' }. */
export interface DomesticCode {
  readonly scheme: string;
  readonly value: string;
}

/**
 * A link from a record to its parent. `scheme`/`value` name the parent in the scheme the source
 * uses: 'lei' for GLEIF relationships, 'ch_iid' for the SIX head office (Hauptsitz). A LEI-only
 * field could not carry the SIX parent, which is why the link is scheme-qualified.
 */
export interface ParentLink {
  readonly relationship_type: string;
  readonly scheme: string;
  readonly value: string;
  /** Relationship status as published (GLEIF: ACTIVE / INACTIVE); null where the source has none. */
  readonly status: string | null;
  readonly start_date: string | null;
}

/** A successor code, set ONLY when the source itself publishes one (never inferred). */
export interface Successor {
  readonly scheme: string;
  readonly value: string;
  readonly effective_at: string | null;
}

export interface RegistryAddress {
  readonly street: string | null;
  readonly postal_code: string | null;
  readonly city: string | null;
  readonly region: string | null;
}

/** 'unassigned': a row the publisher lists for a code that belongs to no bank (NBB "VRIJ"); kept for diffs, never indexed. */
export type RecordType =
  | 'bank'
  | 'branch'
  | 'legal_entity'
  | 'relationship'
  | 'routing_number'
  | 'bank_code_range'
  | 'unassigned';

export interface RegistryRecord {
  /** e.g. 'bundesbank-blz', 'oenb-sepa', 'six-bankenstamm', 'nbb-bank-codes', 'gleif-lei', 'gleif-rr', 'fedach', 'fedwire', 'bankdata-germany', 'iban-to-bic'. */
  readonly source_id: string;
  /** Stable key within the source (Bundesbank Datensatznummer, AT BLZ, CH IID, BE 'from-to', LEI, RTN ...). */
  readonly record_key: string;
  readonly record_type: RecordType;
  readonly country_code: string;
  readonly legal_name: string | null;
  readonly short_name: string | null;
  /** As published, normalized to 8 or 11 upper-case characters; never invented. */
  readonly bic: string | null;
  readonly lei: string | null;
  readonly domestic_codes: readonly DomesticCode[];
  readonly address: RegistryAddress;
  readonly entity_status: string | null;
  readonly registration_status: string | null;
  /** DE: the Bundesbank check-digit method code (positions 151-152). */
  readonly account_checksum_method: string | null;
  readonly parents: readonly ParentLink[];
  readonly successor: Successor | null;
  /** DE Bankleitzahllöschung = 1 (deletion of this BLZ is intended). */
  readonly deletion_planned: boolean;
  /** Every source column as published (after decoding and trimming): provenance and field-level diffs. */
  readonly fields: Readonly<Record<string, string>>;
}

/** Where a snapshot comes from, and under which terms. */
export interface SourceInfo {
  readonly source_id: string;
  readonly publisher: string;
  readonly title: string;
  /** Licence or terms of use, as the publisher states them (not always an open licence). */
  readonly license: string;
  /** Package version for npm-embedded data; null for publisher files (their date is the snapshot date). */
  readonly version: string | null;
}

export interface ParsedSnapshot {
  readonly source_id: string;
  readonly source: SourceInfo;
  /** ISO date (YYYY-MM-DD) the publisher gives for the data, or null when neither file nor caller knows it. */
  readonly snapshot_date: string | null;
  readonly records: readonly RegistryRecord[];
  /** Data rows read from the file (equals records.length for every importer here). */
  readonly row_count: number;
  /** Fields that change without the data changing (download dates, release flags): diffs skip them. */
  readonly ignored_fields: readonly string[];
}
