import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the services a test run starts record every kind of answer they send (IBANQA_OBSERVED_STATUSES_DIR,
 * src/transport/observed-statuses.ts), for test/zz-contract/observed-statuses.test.ts to compare with the
 * OpenAPI document. One directory per `node --test` run: the runner starts each test file as its own process,
 * so the runner's pid (every file's parent) names the run. IBANQA_OBSERVED_STATUSES_DIR, when set, wins.
 */
export function observedStatusesDir(): string {
  const given = process.env.IBANQA_OBSERVED_STATUSES_DIR;
  return given !== undefined && given !== ''
    ? given
    : join(tmpdir(), `ibanqa-observed-statuses-${process.ppid}`);
}

/** The environment entry that makes a service record into this run's directory. */
export function observedStatusesEnv(): { IBANQA_OBSERVED_STATUSES_DIR: string } {
  return { IBANQA_OBSERVED_STATUSES_DIR: observedStatusesDir() };
}
