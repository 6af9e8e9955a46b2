// Shared by the US routing API tests: a real service with (or without) a FedACH/Fedwire directory, and the
// credits a key has used, read from the service's own meter.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { usDirectoryFilesEnv } from '../../src/registry/routing-directory-loader.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { sharedMissing, sharedPath, skipWithoutShared } from '../helpers/shared.js';

export { sharedMissing };
/** node:test options for tests on the real FedACH/Fedwire files. */
export const needsShared = skipWithoutShared;

export const directoryFiles = {
  fedach2016: sharedPath('fedach/2016-02-03/FedACHdir.txt'),
  fedach2018: sharedPath('fedach/2018-12-04/FedACHdir.txt'),
  fedwire2016: sharedPath('fedwire/2016-02-04/fpddir.txt'),
  fedwire2018: sharedPath('fedwire/2018-12-03/fpddir.txt'),
} as const;

/** The 2018 releases, as an operator would name them in IBANQA_US_DIRECTORY_FILES. */
export const directory2018 = `fedach:${directoryFiles.fedach2018},fedwire:${directoryFiles.fedwire2018}`;
export const directory2016 = `fedach:${directoryFiles.fedach2016},fedwire:${directoryFiles.fedwire2016}`;

/** Starts the service with IBANQA_US_DIRECTORY_FILES set to `files` ('' starts without a directory). */
export function startWithDirectory(
  files: string,
  options: { dataDir?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<TestService> {
  return startTestService({ ...options, env: { ...options.env, [usDirectoryFilesEnv]: files } });
}

/** Every credit kind a key has used, so a test can assert that NOTHING moved. */
export function usageOf(service: TestService, key: string): Record<string, number> {
  const account = service.running.store.authenticate(key, new Date());
  assert.ok(account);
  const balance = service.running.meter.balance(account, new Date());
  return Object.fromEntries(Object.entries(balance).map(([kind, entry]) => [kind, entry.used]));
}

/** A fresh request_id: Unix milliseconds, hyphen, 32 lower-case hex. */
export function newRequestId(atMs: number = Date.now()): string {
  return `${atMs}-${randomBytes(16).toString('hex')}`;
}

/**
 * A replay is the saved answer marked `replayed: true`, and it charged nothing: every charged_* field is 0.
 * Asserts both, then that everything else equals the original answer.
 */
export function assertReplayOf(
  replay: Record<string, unknown>,
  original: Record<string, unknown>,
): void {
  assert.equal(replay.replayed, true);
  const restored: Record<string, unknown> = { ...replay, replayed: false };
  for (const field of Object.keys(original).filter((name) => name.startsWith('charged_'))) {
    assert.equal(replay[field], 0, `${field} of a replay`);
    restored[field] = original[field];
  }
  assert.deepEqual(restored, original);
}
