/**
 * How far an acknowledged write has travelled (IBANQA_LEDGER_DURABILITY); every answer waits for its commit either way.
 * - `disk` (default): lmdb-js's overlappingSync. The commit waits for the previous transaction's flush, so a
 *   commit takes p50 0.4 / p99 4.4 ms on this machine's disk; a power loss can lose only the batch still flushing,
 *   and never corrupts the file.
 * - `process`: LMDB's MDB_NOSYNC. The commit is in the OS page cache (p50 0.03 / p99 0.3 ms), so acknowledged
 *   writes survive a crash of the service process (kill -9, out of memory) but not of the machine: a power loss or
 *   kernel crash can lose the writes the kernel had not yet written back, and LMDB documents that it can then
 *   corrupt the environment. For CI runners and disposable environments whose ledger can be recreated.
 */
export const ledgerDurabilities = ['disk', 'process'] as const;
export type LedgerDurability = (typeof ledgerDurabilities)[number];
