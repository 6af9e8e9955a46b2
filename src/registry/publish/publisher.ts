/**
 * The publishing side, for a process that imports through the writer handle with a database URL (`ibanqa registry
 * import | sync --database-url`, which migrates the database first: the table is migration 3's). One PostgreSQL transaction spans the whole command and holds the publication
 * lock: the local registry first takes every publication it lacks (so the new import is made on the published
 * chain), then imports, and at the end every import it committed becomes a row, with a NOTIFY that PostgreSQL
 * delivers on commit. Publishers on different nodes therefore run one at a time and never publish two imports for
 * one version.
 *
 * LMDB and PostgreSQL commit separately: if the final commit fails after the local import committed, this node's
 * registry is ahead of the published chain, and applying later publications refuses it with the way to rebuild it.
 */
import pg from 'pg';
import { AppError } from '../../errors.js';
import type { CommittedImport, RegistryStore } from '../store/registry-store.js';
import type { RegistryIdentity } from '../store/types.js';
import { applyPublications, type ApplyOutcome } from './apply.js';
import { encodePublication } from './payload.js';
import { insertPublication } from './publications.js';
import { publicationChannel, publicationLockSql } from './schema.js';

export class RegistryPublisher {
  private readonly imports: CommittedImport[] = [];
  private stopObserving: () => void = () => undefined;

  private constructor(
    private readonly client: pg.Client,
    private readonly base: RegistryIdentity,
    /** What the catch-up applied before this process's own imports. */
    readonly caughtUp: ApplyOutcome,
  ) {}

  /** Connects, takes the lock, brings `store` up to the published chain, then records every import it commits. */
  static async begin(databaseUrl: string, store: RegistryStore): Promise<RegistryPublisher> {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query(publicationLockSql);
      const caughtUp = await applyPublications(store, client);
      const publisher = new RegistryPublisher(client, caughtUp.registry, caughtUp);
      publisher.stopObserving = store.onImport((imported) => publisher.imports.push(imported));
      return publisher;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      await client.end();
      throw error;
    }
  }

  /** Publishes what this process imported (also after a failed command: those imports did commit here). */
  async finish(): Promise<readonly number[]> {
    this.stopObserving();
    try {
      const versions = await this.insertAll();
      if (versions.length > 0)
        await this.client.query('SELECT pg_notify($1, $2)', [
          publicationChannel,
          String(versions[versions.length - 1]),
        ]);
      await this.client.query('COMMIT');
      return versions;
    } catch (error) {
      await this.client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      await this.client.end();
    }
  }

  private async insertAll(): Promise<number[]> {
    let base = this.base;
    const versions: number[] = [];
    for (const { parsed, options, summary } of this.imports) {
      const made = summary.registry;
      if (made.version !== base.version + 1)
        throw new AppError(
          'conflict',
          `the registry went from version ${base.version} to ${made.version} during this import (another import into this data directory?): not published`,
        );
      await insertPublication(this.client, {
        version: made.version,
        base_version: base.version,
        base_fingerprint: base.fingerprint,
        fingerprint: made.fingerprint,
        source_id: summary.source_id,
        snapshot_date: summary.snapshot_date,
        row_count: summary.row_count,
        encoded: encodePublication({ parsed, options, summary }),
      });
      versions.push(made.version);
      base = made;
    }
    return versions;
  }
}
