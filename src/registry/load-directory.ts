import { loadEmbeddedDefault } from './embedded-default.js';
import type { BankDirectory } from './bank-directory.js';
import { createMemoryDirectory } from './memory-directory.js';

/**
 * The bank directory the IBAN operations read. Today: the embedded default built from npm packages
 * with clear licences (bankdata-germany, iban-to-bic), offline, in memory in every thread that needs it.
 * The LMDB registry of issue 4 replaces this behind the same BankDirectory port.
 */
export function loadBankDirectory(): BankDirectory {
  return createMemoryDirectory(loadEmbeddedDefault());
}
