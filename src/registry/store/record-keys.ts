/**
 * The keys people know, per source, resolved to the record key the registry stores: the Bundesbank bank
 * code ("10050000" or "DE:10050000": the main record), a SIX IID ("8528": its head record 8528-0000), an NBB
 * protocol code ("539": the range that holds it), and as stored: OeNB bank code, GLEIF LEI, ABA routing
 * number, Bundesbank branch key "10050000-012345", SIX "IID-Filial-ID", NBB "from-to". Read-only.
 */
import type { RegistryReader } from './registry-reader.js';

const COUNTRY_PREFIX = /^[A-Z]{2}:/;
/** SIX: the head record of an IID has Filial-ID 0000. */
const SIX_HEAD_BRANCH = '0000';
const NBB_PROTOCOL_CODE = /^\d{3}$/;
const NBB_RANGE = /^(\d{3})-(\d{3})$/;

/** The stored key `key` names in `sourceId`, or `key` itself (trimmed) when nothing else fits. */
export function canonicalRecordKey(store: RegistryReader, sourceId: string, key: string): string {
  const trimmed = key.trim();
  if (store.recordId(sourceId, trimmed) !== undefined) return trimmed;
  const bare = trimmed.toUpperCase().replace(COUNTRY_PREFIX, '');
  if (bare !== trimmed && store.recordId(sourceId, bare) !== undefined) return bare;
  if (sourceId === 'six-bankenstamm' && /^\d{1,5}$/.test(bare)) {
    const head = `${String(Number(bare))}-${SIX_HEAD_BRANCH}`;
    if (store.recordId(sourceId, head) !== undefined) return head;
  }
  if (sourceId === 'nbb-bank-codes' && NBB_PROTOCOL_CODE.test(bare))
    return nbbRangeOf(store, bare) ?? trimmed;
  return trimmed;
}

/** The current NBB range (assigned or not) that holds a 3-digit protocol code. */
function nbbRangeOf(store: RegistryReader, code: string): string | undefined {
  const snapshotId = store.source('nbb-bank-codes')?.current_snapshot_id;
  if (snapshotId === undefined) return undefined;
  for (const record of store.snapshotAsParsed(snapshotId).records) {
    const match = NBB_RANGE.exec(record.record_key);
    if (match !== null && (match[1] ?? '') <= code && code <= (match[2] ?? ''))
      return record.record_key;
  }
  return undefined;
}
