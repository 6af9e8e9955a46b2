// Goal: a publisher's placeholder rows (NBB "VRIJ" / "Onbeschikbaar") are never served as banks: validate, lookup
// and search say no_match for their codes, while the range stays reachable by its record key and in diffs.
// Method: the real NBB file imported into a real LMDB registry, read through the same directory the IBAN ops use.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { needsShared, readShared } from '../../test/fixtures/registry/paths.js';
import { validateIban } from '../domain/iban/validate.js';
import { ibanCheckDigits } from '../domain/iban/mod97.js';
import { LmdbDirectory } from './lmdb-directory.js';
import { importFile } from './store/import-file.js';
import { lookupIdentifier } from './store/lookup.js';
import { RegistryStore } from './store/registry-store.js';
import { searchRegistry } from './store/search.js';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A Belgian IBAN with the given protocol code and valid national (mod 97) and IBAN check digits. */
function belgianIban(code: string): string {
  const account = `${code}0000001`;
  const check = String(Number(BigInt(account) % 97n) || 97).padStart(2, '0');
  const bban = `${account}${check}`;
  return `BE${ibanCheckDigits('BE', bban)}${bban}`;
}

describe('NBB placeholder ranges', { skip: needsShared }, () => {
  it('are no bank for validate, lookup and search; real ranges still match', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ibanqa-placeholder-'));
    dirs.push(dir);
    const store = RegistryStore.openWriter(dir);
    importFile(store, {
      sourceId: 'nbb-bank-codes',
      bytes: readShared('nbb-bank-codes/2025-08-04/nbb.xlsx'),
      fileName: 'nbb.xlsx',
    });
    const directory = new LmdbDirectory(store);
    for (const code of ['112', '539', '151', '170', '900']) {
      const verdict = validateIban(belgianIban(code), directory);
      assert.equal(verdict.valid, true, code);
      assert.equal(directory.bankOf('BE', code), undefined, code);
      assert.equal(lookupIdentifier(store, `BE:${code}`, undefined, 25).records.length, 0, code);
    }
    assert.equal(directory.bankOf('BE', '001')?.bic, 'GEBABEBB');
    assert.equal(directory.bankCodesOf('BE').includes('112'), false);
    assert.equal(searchRegistry(store, { query: 'VRIJ', limit: 25 }).records.length, 0);
    assert.equal(searchRegistry(store, { query: 'Onbeschikbaar', limit: 25 }).records.length, 0);
    const range = store.record(store.recordId('nbb-bank-codes', '539-539') ?? 0);
    assert.equal(range?.record_type, 'unassigned');
    assert.equal(range?.fields['Name Dutch'], 'Onbeschikbaar');
  });
});
