/**
 * How a source's keys people know resolve to the key the registry stores, beyond the stored key itself and its
 * country-prefixed form ("DE:10050000"), which every source accepts (record-keys.ts). Read-only.
 */
import type { RegistryReader } from './registry-reader.js';

/**
 * `key` is trimmed, upper-cased and without its country prefix; the answer is the stored key it names, or
 * undefined when the rule has none (the caller then keeps the key as given).
 */
export type KeyRule = (store: RegistryReader, sourceId: string, key: string) => string | undefined;

/** Keys are used as published (bank codes, LEIs, routing numbers): nothing beyond the common forms. */
export const keysAsStored: KeyRule = () => undefined;

/** SIX: the head record of an IID has Filial-ID 0000. */
const SIX_HEAD_BRANCH = '0000';
const SIX_IID = /^\d{1,5}$/;

/** SIX: an IID ("8528") names its head record ("8528-0000"). */
export const sixHeadRecord: KeyRule = (store, sourceId, key) => {
  if (!SIX_IID.test(key)) return undefined;
  const head = `${String(Number(key))}-${SIX_HEAD_BRANCH}`;
  return store.recordId(sourceId, head) === undefined ? undefined : head;
};

const NBB_PROTOCOL_CODE = /^\d{3}$/;
const NBB_RANGE = /^(\d{3})-(\d{3})$/;

/** NBB: a 3-digit protocol code ("539") names the current range (assigned or not) that holds it ("539-539"). */
export const nbbRangeHolding: KeyRule = (store, sourceId, code) => {
  if (!NBB_PROTOCOL_CODE.test(code)) return undefined;
  const snapshotId = store.source(sourceId)?.current_snapshot_id;
  if (snapshotId === undefined) return undefined;
  for (const record of store.snapshotAsParsed(snapshotId).records) {
    const match = NBB_RANGE.exec(record.record_key);
    if (match !== null && (match[1] ?? '') <= code && code <= (match[2] ?? ''))
      return record.record_key;
  }
  return undefined;
};
