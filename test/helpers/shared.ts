/**
 * Whether ../shared (beside the repository) is here: the real publisher files that tests read in place and never
 * copy into the repository (several forbid redistribution). Without it, tests on those files skip with `needsShared`
 * as the reason; the same code paths are also tested on synthetic fixtures that run everywhere.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** ../shared/registry-sources: Bundesbank, OeNB, SIX, NBB, GLEIF, FedACH and Fedwire files as published. */
export const registrySources = resolve(repoRoot, '..', 'shared', 'registry-sources');
export const sharedMissing = !existsSync(registrySources);
/** The skip reason (node:test `skip` option) for a test on a real file, or false when ../shared is here. */
export const needsShared: string | false = sharedMissing
  ? 'needs ../shared/registry-sources'
  : false;
/** node:test options that skip without ../shared: `it('...', skipWithoutShared, () => ...)`. */
export const skipWithoutShared = { skip: needsShared };

/** Absolute path of a file under ../shared/registry-sources. */
export function sharedPath(relative: string): string {
  return join(registrySources, relative);
}

export function readShared(relative: string): Buffer {
  return readFileSync(sharedPath(relative));
}
