/**
 * `registry sync`: download the publishers' current files and import each. URLs come from the source table
 * (only where the publisher keeps one stable address: sources.ts), the environment (IBANQA_SYNC_URL_<SOURCE_ID>, e.g.
 * IBANQA_SYNC_URL_OENB_SEPA) or `--url source=url`. One failing source does not stop the others.
 */
import { basename } from 'node:path';
import { AppError } from '../../errors.js';
import { importFile } from './import-file.js';
import type { RegistryStore } from './registry-store.js';
import { registrySources, sourceIds } from './sources.js';
import type { ImportSummary } from './types.js';
import { limits } from '../../limits.js';

export function envNameOf(sourceId: string): string {
  return `IBANQA_SYNC_URL_${sourceId.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** Source -> URL: defaults, overridden by the environment, overridden by flags; restricted to `only` when given. */
export function syncUrls(
  env: NodeJS.ProcessEnv,
  flags: readonly string[],
  only?: readonly string[],
): Map<string, string> {
  const urls = new Map<string, string>();
  for (const { info, syncUrl } of registrySources)
    if (syncUrl !== null) urls.set(info.source_id, syncUrl);
  for (const sourceId of sourceIds) {
    const fromEnv = env[envNameOf(sourceId)];
    if (fromEnv !== undefined && fromEnv !== '') urls.set(sourceId, fromEnv);
  }
  for (const flag of flags) {
    const split = flag.indexOf('=');
    const sourceId = flag.slice(0, Math.max(split, 0));
    if (split < 1 || !sourceIds.includes(sourceId)) {
      throw new AppError(
        'invalid_argument',
        `--url takes <source>=<url> with a source of ${sourceIds.join(', ')}; got "${flag}"`,
      );
    }
    urls.set(sourceId, flag.slice(split + 1));
  }
  if (only === undefined || only.length === 0) return urls;
  for (const sourceId of only) {
    if (!urls.has(sourceId))
      throw new AppError(
        'invalid_argument',
        `no URL for ${sourceId}: set ${envNameOf(sourceId)} or pass --url ${sourceId}=<url>`,
      );
  }
  return new Map([...urls].filter(([sourceId]) => only.includes(sourceId)));
}

export type SyncResult =
  | {
      readonly ok: true;
      readonly source_id: string;
      readonly url: string;
      readonly summary: ImportSummary;
    }
  | {
      readonly ok: false;
      readonly source_id: string;
      readonly url: string;
      readonly error: string;
    };

async function download(url: string): Promise<Uint8Array> {
  const response = await fetch(url, {
    signal: AbortSignal.timeout(limits.registry.downloadTimeoutMs),
    redirect: 'follow',
  });
  if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`);
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > limits.registry.downloadBytesMax)
    throw new Error(`file of ${declared} bytes exceeds ${limits.registry.downloadBytesMax}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.length > limits.registry.downloadBytesMax)
    throw new Error(`file of ${bytes.length} bytes exceeds ${limits.registry.downloadBytesMax}`);
  return bytes;
}

export async function syncSources(
  store: RegistryStore,
  urls: ReadonlyMap<string, string>,
  now?: Date,
): Promise<SyncResult[]> {
  const results: SyncResult[] = [];
  for (const [sourceId, url] of urls) {
    try {
      const bytes = await download(url);
      const fileName = basename(new URL(url).pathname) || sourceId;
      const summary = importFile(store, {
        sourceId,
        bytes,
        fileName,
        ...(now === undefined ? {} : { now }),
      });
      results.push({ ok: true, source_id: sourceId, url, summary });
    } catch (error) {
      results.push({
        ok: false,
        source_id: sourceId,
        url,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return results;
}
