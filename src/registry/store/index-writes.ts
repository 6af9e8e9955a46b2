/** Index maintenance inside an import transaction: entries are (index key, record id) pairs. */
import type { RegistryRecord } from '../record.js';
import type { RegistryDbs } from './env.js';
import { indexEntriesOf, type IndexEntries } from './index-keys.js';

const indexNames = [
  'bic11',
  'bic8',
  'lei',
  'code',
  'codeValue',
  'ibanCode',
  'token',
] as const satisfies readonly (keyof IndexEntries & keyof RegistryDbs)[];

export function addIndexEntries(dbs: RegistryDbs, record: RegistryRecord, recordId: number): void {
  const entries = indexEntriesOf(record);
  for (const name of indexNames) for (const key of entries[name]) dbs[name].putSync(key, recordId);
}

export function removeIndexEntries(
  dbs: RegistryDbs,
  record: RegistryRecord,
  recordId: number,
): void {
  const entries = indexEntriesOf(record);
  for (const name of indexNames)
    for (const key of entries[name]) dbs[name].removeSync(key, recordId);
}
