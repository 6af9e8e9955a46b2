/**
 * A registry write command (`ibanqa registry import | sync`) with a database URL: its imports become publications
 * (publisher.ts). Without one the command writes this data directory only, as always.
 */
import { AppError } from '../../errors.js';
import type { RegistryStore } from '../store/registry-store.js';
import { RegistryPublisher } from './publisher.js';

export interface PublishedWrites {
  readonly databaseUrl: string | null;
  /** --no-embedded: a registry without the embedded default, which no node of a cluster holds. */
  readonly bare: boolean;
  /** One line for the operator (stderr: stdout carries the command's own output). */
  readonly note: (line: string) => void;
}

export async function publishedWrites<T>(
  store: RegistryStore,
  settings: PublishedWrites,
  write: () => T | Promise<T>,
): Promise<T> {
  if (settings.databaseUrl === null) return write();
  if (settings.bare)
    throw new AppError(
      'invalid_argument',
      '--no-embedded builds a registry no node of a cluster holds; it cannot be published (drop --database-url and IBANQA_DATABASE_URL)',
    );
  const publisher = await RegistryPublisher.begin(settings.databaseUrl, store);
  const { applied } = publisher.caughtUp;
  if (applied.length > 0)
    settings.note(`caught up with published registry versions ${applied.join(', ')}`);
  let result: T;
  try {
    result = await write();
  } finally {
    // Imports that committed here are published even when the command failed after them.
    const versions = await publisher.finish();
    if (versions.length > 0)
      settings.note(`published registry version ${versions.join(', ')} to the database`);
  }
  return result;
}
