/**
 * A registry built from the embedded default once and copied into every fresh test data directory: the first
 * start of a real service imports about 50,000 embedded records (seconds on a busy machine), which every test
 * service would otherwise repeat. The template is the real registry the real code builds, keyed by the embedded
 * versions, and shared between test processes through the OS temp directory (built aside, then renamed).
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { embeddedVersions } from '../../src/registry/embedded-default.js';
import { embeddedManifest } from '../../src/registry/embedded-tables.js';
import { ensureEmbeddedDefault } from '../../src/registry/store/embedded.js';
import { registryPath } from '../../src/registry/store/env.js';
import { RegistryStore } from '../../src/registry/store/registry-store.js';

const LMDB_DATA_FILE = 'data.mdb';

function templateKey(): string {
  const manifest = embeddedManifest();
  const basis = JSON.stringify([
    embeddedVersions(),
    manifest['bundesbank-blz'].sha256,
    manifest.schwifty.sha256,
  ]);
  return createHash('sha256').update(basis).digest('hex').slice(0, 16);
}

let ready: Promise<string> | undefined;

async function buildTemplate(): Promise<string> {
  const finalDir = join(tmpdir(), `ibanqa-registry-template-${templateKey()}`);
  if (existsSync(join(registryPath(finalDir), LMDB_DATA_FILE))) return finalDir;
  const building = mkdtempSync(join(tmpdir(), 'ibanqa-registry-template-building-'));
  const store = RegistryStore.openWriter(building);
  ensureEmbeddedDefault(store);
  await store.close();
  try {
    renameSync(building, finalDir);
  } catch {
    // Another test process finished first: its template is the same data.
    rmSync(building, { recursive: true, force: true });
  }
  return finalDir;
}

/** Copies the embedded-default registry into `dataDir` (which must not hold one yet). */
export async function seedEmbeddedRegistry(dataDir: string): Promise<void> {
  ready ??= buildTemplate();
  const template = await ready;
  mkdirSync(registryPath(dataDir), { recursive: true });
  copyFileSync(
    join(registryPath(template), LMDB_DATA_FILE),
    join(registryPath(dataDir), LMDB_DATA_FILE),
  );
}
