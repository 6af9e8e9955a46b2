// Goal: the keys people know work everywhere a record key is asked for: the Bundesbank bank code is the main
// record's key (events and diffs list bank codes, branches stay reachable), SIX IIDs, NBB protocol codes, OeNB
// bank codes, LEIs and routing numbers resolve to their records, and lookup finds NBB ranges by bank code as
// validation does. Method: the real publisher files from ../shared in a real LMDB registry.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { needsShared, readShared } from '../../../test/fixtures/registry/paths.js';
import { diffSnapshots } from '../diff.js';
import { importFile } from './import-file.js';
import { lookupIdentifier } from './lookup.js';
import { canonicalRecordKey } from './record-keys.js';
import { RegistryStore } from './registry-store.js';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('natural record keys on the real publisher files', { skip: needsShared }, () => {
  let store: RegistryStore;
  before(() => {
    const dir = mkdtempSync(join(tmpdir(), 'ibanqa-keys-'));
    dirs.push(dir);
    store = RegistryStore.openWriter(dir);
    const file = (sourceId: string, path: string, snapshotDate?: string) =>
      importFile(store, {
        sourceId,
        bytes: readShared(path),
        fileName: 'file',
        ...(snapshotDate === undefined ? {} : { snapshotDate }),
      });
    file('bundesbank-blz', 'bundesbank-blz/2025-06-09/bundesbank.txt', '2025-06-09');
    file('bundesbank-blz', 'bundesbank-blz/2025-09-08/bundesbank.txt', '2025-09-08');
    file('oenb-sepa', 'oenb-sepa-verzeichnis/2025-09-22/at.csv');
    file('six-bankenstamm', 'six-bankenstamm/2025-10-06/ch.xlsx');
    file('nbb-bank-codes', 'nbb-bank-codes/2025-08-04/nbb.xlsx');
    file('gleif-lei', 'gleif/20180901-gleif-concatenated-file-lei2-Top10.xml');
    file('fedach', 'fedach/2018-12-04/FedACHdir.txt');
  });

  it('Bundesbank: the bank code is the main record key; events and diffs name bank codes', () => {
    const id = store.recordId('bundesbank-blz', '10050000');
    assert.notEqual(id, undefined);
    const record = store.record(id ?? 0);
    assert.deepEqual(
      [record?.record_type, record?.legal_name],
      ['bank', 'BSK 1818 - Berliner Sparkasse'],
    );
    const renamed = store.eventsOfRecord(id ?? 0).find((e) => e.change_type === 'modified');
    assert.deepEqual(
      renamed?.changes.find((c) => c.field === 'name')?.before,
      'Landesbank Berlin - Berliner Sparkasse',
    );
    const [june, september] = store
      .snapshotsOf('bundesbank-blz')
      .map((s) => store.snapshotAsParsed(s.snapshot_id));
    const diff = diffSnapshots(june!, september!);
    const mainKeys = (records: readonly { record_key: string; record_type: string }[]) =>
      records
        .filter((r) => r.record_type === 'bank')
        .map((r) => r.record_key)
        .sort();
    // The README's per-bank-code view, read straight off the record keys.
    assert.deepEqual(mainKeys(diff.added), ['21050055', '86021000']);
    assert.deepEqual(mainKeys(diff.removed), ['50961312', '51230600', '70012400']);
    assert.equal(diff.modified.filter((m) => m.after.record_type === 'bank').length, 38);
    assert.ok(diff.modified.some((m) => m.key === '10050000'));
  });

  it('Bundesbank: "DE:10050000" names the main record; branches are reached under their bank code', () => {
    assert.equal(canonicalRecordKey(store, 'bundesbank-blz', 'DE:10050000'), '10050000');
    assert.equal(canonicalRecordKey(store, 'bundesbank-blz', ' 10050000 '), '10050000');
    // Sparkasse Herford publishes further branch records under its bank code.
    const hits = lookupIdentifier(store, 'DE:49450120', undefined, 25).records.filter(
      (r) => r.source_id === 'bundesbank-blz',
    );
    const branches = hits.filter((r) => r.record_type === 'branch');
    assert.ok(hits.some((r) => r.record_key === '49450120' && r.record_type === 'bank'));
    assert.ok(
      branches.length > 0 &&
        branches.every((r) => r.record_key === `49450120-${r.fields.datensatznummer}`),
    );
    const branchKey = branches[0]?.record_key ?? '';
    assert.equal(canonicalRecordKey(store, 'bundesbank-blz', branchKey), branchKey);
    assert.notEqual(store.recordId('bundesbank-blz', branchKey), undefined);
  });

  it('SIX IID, OeNB bank code, LEI and routing number', () => {
    assert.equal(canonicalRecordKey(store, 'six-bankenstamm', '30121'), '30121-0000');
    assert.equal(canonicalRecordKey(store, 'six-bankenstamm', '83050-0000'), '83050-0000');
    assert.equal(canonicalRecordKey(store, 'oenb-sepa', '36316'), '36316');
    assert.equal(canonicalRecordKey(store, 'oenb-sepa', 'AT:36316'), '36316');
    const lei =
      store.snapshotAsParsed(store.source('gleif-lei')?.current_snapshot_id ?? 0).records[0]
        ?.record_key ?? '';
    assert.equal(lei.length, 20);
    assert.equal(canonicalRecordKey(store, 'gleif-lei', lei), lei);
    assert.notEqual(
      store.recordId('fedach', canonicalRecordKey(store, 'fedach', '011000015')),
      undefined,
    );
  });

  it('NBB: a protocol code names its range; lookup finds the range by bank code, as validation does', () => {
    assert.equal(canonicalRecordKey(store, 'nbb-bank-codes', '025'), '000-049');
    assert.equal(canonicalRecordKey(store, 'nbb-bank-codes', 'BE:539'), '539-539');
    const hit = lookupIdentifier(store, 'BE:025', undefined, 25);
    assert.deepEqual(
      hit.records.map((r) => [r.record_key, r.bic]),
      [['000-049', 'GEBABEBB']],
    );
    assert.deepEqual(
      lookupIdentifier(store, 'BE:025', 'be_protocol', 25).records.map((r) => r.record_key),
      ['000-049'],
    );
    // 539 is "Onbeschikbaar" in the 2025 list: no bank, so no match (the range itself stays reachable by key).
    assert.equal(lookupIdentifier(store, 'BE:539', undefined, 25).records.length, 0);
    // A SIX IID as it sits in a CH IBAN (left-padded to 5 digits) is found too.
    assert.ok(
      lookupIdentifier(store, 'CH:08349', undefined, 25).records.some(
        (r) => r.record_key === '8349-0000',
      ),
    );
  });
});
