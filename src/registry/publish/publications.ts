/** Reads and writes of the registry_publications table (schema.ts). */
import type { ClientBase } from 'pg';
import type { EncodedPublication } from './payload.js';

/** A publication without its payload: what a node checks before it fetches the payload. */
export interface PublicationHead {
  readonly version: number;
  readonly base_version: number;
  readonly base_fingerprint: string;
  readonly fingerprint: string;
  readonly source_id: string;
}

const headColumns = 'version, base_version, base_fingerprint, fingerprint, source_id';

export async function latestPublishedVersion(client: ClientBase): Promise<number> {
  const result = await client.query<{ version: number | null }>(
    'SELECT max(version) AS version FROM registry_publications',
  );
  return result.rows[0]?.version ?? 0;
}

/** Publications after `version`, oldest first (payloads are fetched one at a time: a replay may be large). */
export async function headsAfter(client: ClientBase, version: number): Promise<PublicationHead[]> {
  const result = await client.query<PublicationHead>(
    `SELECT ${headColumns} FROM registry_publications WHERE version > $1 ORDER BY version`,
    [version],
  );
  return result.rows;
}

export async function headAt(
  client: ClientBase,
  version: number,
): Promise<PublicationHead | undefined> {
  const result = await client.query<PublicationHead>(
    `SELECT ${headColumns} FROM registry_publications WHERE version = $1`,
    [version],
  );
  return result.rows[0];
}

export async function payloadAt(client: ClientBase, version: number): Promise<EncodedPublication> {
  const result = await client.query<{ payload: Buffer; payload_sha256: string }>(
    'SELECT payload, payload_sha256 FROM registry_publications WHERE version = $1',
    [version],
  );
  const row = result.rows[0];
  if (row === undefined) throw new Error(`registry publication ${version} is gone`);
  return { payload: row.payload, sha256: row.payload_sha256 };
}

export interface NewPublication extends PublicationHead {
  readonly snapshot_date: string | null;
  readonly row_count: number;
  readonly encoded: EncodedPublication;
}

export async function insertPublication(
  client: ClientBase,
  publication: NewPublication,
): Promise<void> {
  await client.query(
    `INSERT INTO registry_publications
       (${headColumns}, snapshot_date, row_count, payload, payload_sha256)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      publication.version,
      publication.base_version,
      publication.base_fingerprint,
      publication.fingerprint,
      publication.source_id,
      publication.snapshot_date,
      publication.row_count,
      publication.encoded.payload,
      publication.encoded.sha256,
    ],
  );
}
