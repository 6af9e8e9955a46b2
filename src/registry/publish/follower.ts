/**
 * A service's watch on the published registry: LISTEN on the publication channel for an immediate word, and a
 * poll of the newest published version (limits.registry.publicationPollMs) for what a dropped connection missed.
 * When the database holds a newer version than the registry this node serves, `apply` runs (a child process
 * with the writer handle); one at a time, and once more if news came in meanwhile. The service sees the applied
 * version on its next request, as with any import beside it. The follower holds one connection of its own, beside
 * the node's pool (src/postgres/pool.ts): a LISTEN lasts as long as its connection, so it cannot be a pooled one.
 */
import pg from 'pg';
import type { Logger } from 'pino';
import { limits } from '../../limits.js';
import type { ApplyOutcome } from './apply.js';
import { latestPublishedVersion } from './publications.js';
import { publicationChannel } from './schema.js';

export interface FollowerDeps {
  readonly databaseUrl: string;
  /** The registry version this node serves now. */
  readonly localVersion: () => number;
  /** Applies what is published; `signal` aborts it when the follower closes. */
  readonly apply: (signal: AbortSignal) => Promise<ApplyOutcome>;
  readonly logger: Logger;
}

export class RegistryFollower {
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;
  private failed: { version: number; at: number } | undefined;
  /** One warning per outage, not one per poll. */
  private warned = false;
  private readonly timer: NodeJS.Timeout;
  private readonly stopping = new AbortController();

  constructor(private readonly deps: FollowerDeps) {
    this.timer = setInterval(() => void this.poll(), limits.registry.publicationPollMs);
    this.timer.unref();
    void this.poll();
  }

  private async poll(): Promise<void> {
    if (this.closed) return;
    try {
      const client = await this.connected();
      this.consider(await latestPublishedVersion(client));
    } catch (error) {
      this.drop(error);
    }
  }

  /** A newer published version than this node serves starts an apply (unless it just failed on that version). */
  private consider(published: number): void {
    if (this.closed || published <= this.deps.localVersion()) return;
    const failed = this.failed;
    if (
      failed !== undefined &&
      failed.version === published &&
      Date.now() - failed.at < limits.registry.publicationRetryMs
    )
      return;
    if (this.running !== undefined) {
      this.again = true;
      return;
    }
    this.running = this.applyNow(published).finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        void this.poll();
      }
    });
  }

  private async applyNow(published: number): Promise<void> {
    try {
      const outcome = await this.deps.apply(this.stopping.signal);
      this.failed = undefined;
      if (outcome.applied.length > 0)
        this.deps.logger.info(
          { applied: outcome.applied, registry: outcome.registry },
          'registry: published snapshots applied',
        );
    } catch (error) {
      if (this.closed) return;
      this.failed = { version: published, at: Date.now() };
      this.deps.logger.error(
        { err: error instanceof Error ? error.message : String(error) },
        'registry: published snapshots not applied; this node keeps serving its registry',
      );
    }
  }

  private connected(): Promise<pg.Client> {
    const client = this.client;
    if (client !== undefined) return Promise.resolve(client);
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
    return this.connecting.then(() => {
      if (this.client === undefined) throw new Error('registry follower: not connected');
      return this.client;
    });
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.deps.databaseUrl });
    client.on('error', (error) => this.drop(error));
    client.on('notification', (message) => {
      if (message.channel === publicationChannel) this.consider(Number(message.payload ?? 0));
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${publicationChannel}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.warned = false;
    if (this.closed) await client.end();
    else this.client = client;
  }

  /** A broken connection is dropped; the next poll connects again (and LISTENs again). */
  private drop(error: unknown): void {
    const client = this.client;
    this.client = undefined;
    if (client !== undefined) void client.end().catch(() => undefined);
    if (this.closed || this.warned) return;
    this.warned = true;
    this.deps.logger.warn(
      { err: error instanceof Error ? error.message : String(error) },
      'registry: publication database unreachable; trying again',
    );
  }

  /** Stops watching, and ends an apply under way (its import aborts whole; the next start applies it). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.stopping.abort();
    await this.connecting?.catch(() => undefined);
    await this.running;
    await this.client?.end().catch(() => undefined);
    this.client = undefined;
  }
}
